/**
 * The installation's cursor secret: generated once per database, so every instance over one
 * store signs page tokens alike. Creation is race-free (insert-if-absent, then read back).
 */
import { Installation } from "@costline/core"
import { Effect, Layer, Option, Ref, Schema } from "effect"
import { randomBytes } from "node:crypto"
import { RepoContext } from "./RepoContext.js"

const SecretRow = Schema.Struct({ cursor_secret: Schema.String })

export const make = Effect.gen(function*() {
  const { errors, reader, sql, write } = yield* RepoContext
  const secrets = reader(SecretRow, (row) => row.cursor_secret)
  const read = secrets.first(sql`SELECT cursor_secret FROM installation WHERE id = 1`)
  // Two instances starting together may both insert; the loser's row is dropped and both read the winner's.
  const create = Effect.suspend(() =>
    write(
      sql`INSERT INTO installation (id, cursor_secret) VALUES (1, ${randomBytes(32).toString("base64url")})
          ON CONFLICT (id) DO NOTHING`.pipe(Effect.asVoid, errors.orUnavailable)
    )
  )
  const readOrCreate = read.pipe(
    Effect.flatMap(Option.match({
      onSome: Effect.succeed,
      onNone: () => create.pipe(Effect.zipRight(read), Effect.map(Option.getOrThrow))
    }))
  )
  // The secret never changes once stored; a failed read is not remembered.
  const cached = yield* Ref.make(Option.none<string>())
  const cursorSecret = Ref.get(cached).pipe(
    Effect.flatMap(Option.match({
      onSome: Effect.succeed,
      onNone: () => readOrCreate.pipe(Effect.tap((secret) => Ref.set(cached, Option.some(secret))))
    }))
  )
  return Installation.InstallationRepo.of({ cursorSecret })
})

export const layer = Layer.effect(Installation.InstallationRepo, make)
