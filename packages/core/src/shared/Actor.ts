/**
 * Who performs a change, as the audit log names it. Every mutating service takes one so that
 * its audit record says who and in which request.
 *
 * An actor that is a principal (built with `actorOf`) carries it: its rights bound what the
 * change may grant (see identity/GrantRule). The operator (`Actor.system`) carries none and is
 * not bounded; a user or key actor without its principal may grant nothing.
 */
import { Schema } from "effect"
import { Principal } from "../identity/Domain.js"

/**
 * @since 0.1.0
 * @category schemas
 */
export const ChangedByType = Schema.Literal("user", "api_key", "system")
/**
 * @since 0.1.0
 * @category models
 */
export type ChangedByType = typeof ChangedByType.Type

/**
 * @since 0.1.0
 * @category models
 */
export class Actor extends Schema.Class<Actor>("Actor")({
  changedBy: Schema.String,
  changedByType: ChangedByType,
  requestId: Schema.NullOr(Schema.String),
  principal: Schema.optional(Principal)
}) {
  static readonly system = (requestId: string | null = null) =>
    new Actor({ changedBy: "system", changedByType: "system", requestId })
}
