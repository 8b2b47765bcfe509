/**
 * Core's `CredentialChanges` on Postgres: a dedicated connection LISTENs on
 * CREDENTIALS_CHANNEL, which every API-key revocation notifies in its own transaction (delivered
 * at COMMIT, see PgDialect). Each notice moves the stamp, so every instance drops its verified
 * keys. Until LISTEN is known to be in place (our own hello has come back), and whenever the
 * connection is lost, the stamp is undefined: nothing is cached, every request reads its key.
 * The window left is the notice's delivery, normally milliseconds; VERIFIED_KEY_MAX_AGE bounds
 * what no notice reaches.
 */
import { CREDENTIALS_CHANNEL, CredentialChanges } from "@costline/core"
import type { PgClient } from "@effect/sql-pg"
import { SqlClient } from "@effect/sql/SqlClient"
import { Effect, Fiber, Layer, Schedule, Stream } from "effect"

const HELLO = "listening"

export const layer: Layer.Layer<CredentialChanges, never, SqlClient> = Layer.scoped(
  CredentialChanges,
  Effect.gen(function*() {
    // The store's client is the Postgres one (PgStore builds it), which can LISTEN.
    const sql = (yield* SqlClient) as PgClient.PgClient
    let version = 0
    let listening = false
    const session = Effect.gen(function*() {
      // Said until it comes back: LISTEN runs on its own connection, in its own time.
      const hello = yield* Effect.fork(
        Effect.repeat(Effect.ignore(sql.notify(CREDENTIALS_CHANNEL, HELLO)), Schedule.spaced("100 millis"))
      )
      yield* sql.listen(CREDENTIALS_CHANNEL).pipe(
        Stream.runForEach(() =>
          Effect.suspend(() => {
            version++
            if (listening) return Effect.void
            listening = true
            return Fiber.interrupt(hello)
          })
        ),
        Effect.ensuring(Fiber.interrupt(hello))
      )
    }).pipe(
      Effect.catchAllCause((cause) => Effect.logWarning("credential notices lost; verifying every key until listening again", cause)),
      Effect.ensuring(Effect.sync(() => {
        listening = false
        version++
      }))
    )
    yield* Effect.forkScoped(Effect.forever(Effect.zipRight(session, Effect.sleep("1 second"))))
    return CredentialChanges.of({
      stamp: () => (listening ? version : undefined),
      changed: () => void version++
    })
  })
)
