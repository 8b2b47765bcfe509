/** Branded identifiers: a team id can never be passed where an organization id is expected. */
import { Effect, Either, Schema } from "effect"
import { randomUUID } from "node:crypto"
import { NotFound } from "./Errors.js"

export const OrganizationId = Schema.String.pipe(Schema.minLength(1), Schema.maxLength(128), Schema.brand("OrganizationId"))
export type OrganizationId = typeof OrganizationId.Type

export const UserId = Schema.UUID.pipe(Schema.brand("UserId"))
export type UserId = typeof UserId.Type

export const ApiKeyId = Schema.UUID.pipe(Schema.brand("ApiKeyId"))
export type ApiKeyId = typeof ApiKeyId.Type

export const SessionId = Schema.UUID.pipe(Schema.brand("SessionId"))
export type SessionId = typeof SessionId.Type

export const AuditRecordId = Schema.UUID.pipe(Schema.brand("AuditRecordId"))
export type AuditRecordId = typeof AuditRecordId.Type

export const TeamId = Schema.UUID.pipe(Schema.brand("TeamId"))
export type TeamId = typeof TeamId.Type

export const RoleAssignmentId = Schema.UUID.pipe(Schema.brand("RoleAssignmentId"))
export type RoleAssignmentId = typeof RoleAssignmentId.Type

/** A fresh random UUID (v4). Effectful so that ids are never generated at module load. */
export const newId = <B extends string>(): Effect.Effect<string & import("effect/Brand").Brand<B>> =>
  Effect.sync(() => randomUUID() as string & import("effect/Brand").Brand<B>)

/**
 * The one parser of an id a caller names (a path segment, a CLI argument). Resource ids are
 * UUIDs, which RFC 9562 compares ignoring case: any case is accepted and read as the lower case
 * in which ids are issued and stored. Text that is no id names nothing: NotFound (a 404, like
 * any unknown id), never a validation error.
 */
export const parseId = <A>(schema: Schema.Schema<A, string>, resource: string) => {
  const decode = Schema.decodeUnknownEither(schema)
  return (raw: string): Either.Either<A, NotFound> =>
    Either.mapLeft(decode(raw.toLowerCase()), () => new NotFound({ resource, id: raw }))
}
