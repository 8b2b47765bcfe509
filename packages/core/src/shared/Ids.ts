/** Branded identifiers: a team id can never be passed where an organization id is expected. */
import { Effect, Either, Schema } from "effect"
import { randomUUID } from "node:crypto"
import { NotFound } from "./Errors.js"

/**
 * @since 0.1.0
 * @category schemas
 */
export const OrganizationId = Schema.String.pipe(Schema.minLength(1), Schema.maxLength(128), Schema.brand("OrganizationId"))
/**
 * @since 0.1.0
 * @category models
 */
export type OrganizationId = typeof OrganizationId.Type

/**
 * @since 0.1.0
 * @category schemas
 */
export const UserId = Schema.UUID.pipe(Schema.brand("UserId"))
/**
 * @since 0.1.0
 * @category models
 */
export type UserId = typeof UserId.Type

/**
 * @since 0.1.0
 * @category schemas
 */
export const ApiKeyId = Schema.UUID.pipe(Schema.brand("ApiKeyId"))
/**
 * @since 0.1.0
 * @category models
 */
export type ApiKeyId = typeof ApiKeyId.Type

/**
 * @since 0.1.0
 * @category schemas
 */
export const SessionId = Schema.UUID.pipe(Schema.brand("SessionId"))
/**
 * @since 0.1.0
 * @category models
 */
export type SessionId = typeof SessionId.Type

/**
 * @since 0.1.0
 * @category schemas
 */
export const AuditRecordId = Schema.UUID.pipe(Schema.brand("AuditRecordId"))
/**
 * @since 0.1.0
 * @category models
 */
export type AuditRecordId = typeof AuditRecordId.Type

/**
 * @since 0.1.0
 * @category schemas
 */
export const TeamId = Schema.UUID.pipe(Schema.brand("TeamId"))
/**
 * @since 0.1.0
 * @category models
 */
export type TeamId = typeof TeamId.Type

/**
 * @since 0.1.0
 * @category schemas
 */
export const RoleAssignmentId = Schema.UUID.pipe(Schema.brand("RoleAssignmentId"))
/**
 * @since 0.1.0
 * @category models
 */
export type RoleAssignmentId = typeof RoleAssignmentId.Type

/**
 * A fresh random UUID (v4). Effectful so that ids are never generated at module load.
 * @since 0.1.0
 * @category utils
 */
export const newId = <B extends string>(): Effect.Effect<string & import("effect/Brand").Brand<B>> =>
  Effect.sync(() => randomUUID() as string & import("effect/Brand").Brand<B>)

/**
 * The one parser of an id a caller names (a path segment, a CLI argument). Resource ids are
 * UUIDs, which RFC 9562 compares ignoring case: any case is accepted and read as the lower case
 * in which ids are issued and stored. Text that is no id names nothing: NotFound (a 404, like
 * any unknown id), never a validation error.
 * @since 0.1.0
 * @category utils
 */
export const parseId = <A>(schema: Schema.Schema<A, string>, resource: string) => {
  const decode = Schema.decodeUnknownEither(schema)
  return (raw: string): Either.Either<A, NotFound> =>
    Either.mapLeft(decode(raw.toLowerCase()), () => new NotFound({ resource, id: raw }))
}
