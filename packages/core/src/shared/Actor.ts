/**
 * Who performs a change, as the audit log names it. Every mutating service takes one so that
 * its audit record says who and in which request.
 */
import { Schema } from "effect"

export const ChangedByType = Schema.Literal("user", "api_key", "system")
export type ChangedByType = typeof ChangedByType.Type

export class Actor extends Schema.Class<Actor>("Actor")({
  changedBy: Schema.String,
  changedByType: ChangedByType,
  requestId: Schema.NullOr(Schema.String)
}) {
  static readonly system = (requestId: string | null = null) =>
    new Actor({ changedBy: "system", changedByType: "system", requestId })
}
