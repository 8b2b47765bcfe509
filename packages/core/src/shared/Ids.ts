/** Branded identifiers: a team id can never be passed where an organization id is expected. */
import { Effect, Schema } from "effect"
import { randomUUID } from "node:crypto"

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
