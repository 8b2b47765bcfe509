/** The master-key checks (core secrets/KeyCheck): one sealed known text per key id. */
import { Envelope, KeyCheck } from "@costline/core"
import { Effect, Layer, Schema } from "effect"
import { dbJson, jsonText } from "../Columns.js"
import { RepoContext } from "./RepoContext.js"

const CheckRow = Schema.Struct({ sealed: dbJson(Envelope.SealedSecret) })

const row = (check: Envelope.SealedSecret) => ({ key_id: check.key_id, sealed: jsonText(Schema.encodeSync(Envelope.SealedSecret)(check)) })

export const make = Effect.gen(function*() {
  const { errors, reader, sql, write } = yield* RepoContext
  const checks = reader(CheckRow, (found) => found.sealed)
  const insert = (check: Envelope.SealedSecret) =>
    sql`INSERT INTO secret_key_check ${sql.insert(row(check))} ON CONFLICT (key_id) DO NOTHING`

  return KeyCheck.SecretKeyCheckRepo.of({
    list: checks.all(sql`SELECT sealed FROM secret_key_check ORDER BY key_id`),
    insertIfAbsent: (check) => write(insert(check).pipe(Effect.asVoid, errors.orUnavailable)),
    replaceAll: (check) =>
      write(
        Effect.zipRight(sql`DELETE FROM secret_key_check`, insert(check)).pipe(Effect.asVoid, errors.orUnavailable)
      )
  })
})

export const layer = Layer.effect(KeyCheck.SecretKeyCheckRepo, make)
