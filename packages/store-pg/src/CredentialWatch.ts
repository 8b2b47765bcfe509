/**
 * core's `CredentialChanges` on Postgres: a connection of its own (a plain `pg.Client`, not the
 * pool) `LISTEN`s on CREDENTIALS_CHANNEL, which migration 1800 notifies in the transaction of every
 * change to `api_keys` that could end a key's authority. The stamp is a local count of the
 * notifications (and of connections made): a notification arrives when the change commits.
 *
 * While the connection is not up (starting, lost, the server gone) the stamp is `undefined`, so
 * nothing is cached; this instance's own revocations move the stamp at once; a reconnection (with backoff) moves the stamp, because notifications sent
 * meanwhile were lost. Closing ends the client without an `UNLISTEN` (a stopped server would never
 * answer one) and gives up after CLOSE_TIMEOUT, destroying the socket.
 */
import type { CredentialChanges } from "@costline/core"
import { Deferred, Duration, Effect, Schedule } from "effect"
import pg from "pg"

/** The channel migration 1800's trigger notifies. */
export const CREDENTIALS_CHANNEL = "costline_credentials"

/** The longest closing waits for the server to acknowledge the end of the connection. */
const CLOSE_TIMEOUT = Duration.seconds(1)

/** Between connection attempts: 100 ms doubling, at most 5 s; reset once a connection listens. */
const RECONNECT_FIRST = Duration.millis(100)
const RECONNECT_MAX = Duration.seconds(5)

export interface CredentialWatchOptions {
  readonly url: string
  /** Shown in `pg_stat_activity`. */
  readonly applicationName: string
  readonly connectTimeout: Duration.Duration
}

interface State {
  count: number
  /** The client whose LISTEN is in effect; `undefined` while none is. */
  listening: pg.Client | undefined
}

/**
 * Ends `client`, waiting at most CLOSE_TIMEOUT. It runs as a release, uninterruptibly: the wait
 * for the server's answer is made interruptible, or the timeout could not cut it short and a
 * server that never answers would hold the store's close (and the process's shutdown).
 * @internal
 */
export const close = (client: pg.Client) =>
  Effect.interruptible(Effect.tryPromise(() => client.end())).pipe(
    Effect.timeout(CLOSE_TIMEOUT),
    Effect.ignore,
    // A server that never answered: drop the socket rather than keep it (and the process) open.
    Effect.ensuring(Effect.sync(() => (client as unknown as { connection?: { stream?: { destroy(): void } } }).connection?.stream?.destroy()))
  )

/** Whether migration 1800's trigger is on `api_keys` (as the connection's search_path finds it). */
const notifies = (client: pg.Client) =>
  Effect.tryPromise(() =>
    client.query<{ readonly found: boolean }>(
      `SELECT EXISTS (SELECT 1 FROM pg_trigger WHERE tgrelid = to_regclass('api_keys') AND tgname = 'api_keys_changed') AS found`
    )
  ).pipe(Effect.map((result) => result.rows[0]?.found === true))

/** One connection: connects, listens, and returns when the connection ends (never fails). */
const session = (options: CredentialWatchOptions, state: State, listened: () => void) =>
  Effect.gen(function*() {
    const client = yield* Effect.acquireRelease(
      Effect.sync(() =>
        new pg.Client({
          connectionString: options.url,
          application_name: options.applicationName,
          connectionTimeoutMillis: Duration.toMillis(options.connectTimeout),
          keepAlive: true
        })
      ),
      (client) =>
        Effect.suspend(() => {
          if (state.listening === client) state.listening = undefined
          return close(client)
        })
    )
    const ended = yield* Deferred.make<void>()
    const lost = () => {
      // Synchronously: the very next request must not trust the stamp.
      if (state.listening === client) state.listening = undefined
      Deferred.unsafeDone(ended, Effect.void)
    }
    client.on("error", lost)
    client.on("end", lost)
    client.on("notification", () => {
      state.count++
    })
    yield* Effect.tryPromise(() => client.connect())
    yield* Effect.tryPromise(() => client.query(`LISTEN ${CREDENTIALS_CHANNEL}`))
    // A database without migration 1800 (a store built with `migrate: false`) notifies nothing:
    // listening there would keep revoked keys up to the 5 s bound. Not trusted until it has it.
    while (!(yield* notifies(client))) yield* Effect.sleep(RECONNECT_MAX)
    if (yield* Deferred.isDone(ended)) return
    // Whatever was committed while no connection listened is unknown: older entries go.
    state.count++
    state.listening = client
    listened()
    yield* Deferred.await(ended)
  }).pipe(Effect.scoped, Effect.ignore)

/** Watches until the scope closes; the returned stamp is what `CredentialChanges` provides. */
export const make = (options: CredentialWatchOptions) =>
  Effect.gen(function*() {
    const state: State = { count: 0, listening: undefined }
    let failures = 0
    const delay = () => Duration.min(Duration.times(RECONNECT_FIRST, 2 ** Math.min(failures, 16)), RECONNECT_MAX)
    const attempt = session(options, state, () => {
      failures = 0
    }).pipe(
      Effect.zipRight(Effect.suspend(() => {
        const wait = delay()
        failures++
        return Effect.sleep(wait)
      }))
    )
    yield* Effect.forkScoped(Effect.repeat(attempt, Schedule.forever))
    return {
      stamp: () => (state.listening === undefined ? undefined : state.count),
      /**
       * This instance's own change, when its statement returns: its next request must not wait
       * for the notification (which still arrives, at commit, for a change inside a transaction).
       */
      changed: () => {
        state.count++
      }
    } satisfies CredentialChanges.CredentialChanges["Type"] & { readonly changed: () => void }
  })
