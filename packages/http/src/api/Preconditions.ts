/** The optional `If-Match` header of v2 updates, parsed for core (malformed → 422 on the header). */
import { ETag, type ValidationFailed } from "@costline/core"
import { Effect, Schema } from "effect"

export const IfMatchHeaders = Schema.Struct({ "if-match": Schema.optional(Schema.String) })

export const ifMatchOf = (headers: typeof IfMatchHeaders.Type): Effect.Effect<ETag.Condition | undefined, ValidationFailed> =>
  headers["if-match"] === undefined ? Effect.succeed(undefined) : ETag.parse("if-match", headers["if-match"])
