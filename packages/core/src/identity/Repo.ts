/** Storage contracts of the identity area. Stores implement them; services never see SQL. */
import { Context, type Effect, type Option } from "effect"
import type { AlreadyExists, StoreUnavailable } from "../shared/Errors.js"
import type { OrganizationId, SessionId, UserId } from "../shared/Ids.js"
import type { ApiKey, Organization, Session, User } from "./Domain.js"
import type { RoleAssignment } from "./RoleAssignment.js"

type Io<A, E = never> = Effect.Effect<A, E | StoreUnavailable>

export class OrganizationsRepo extends Context.Tag("@costline/core/OrganizationsRepo")<
  OrganizationsRepo,
  {
    readonly insert: (organization: Organization) => Io<void, AlreadyExists>
    readonly findById: (id: OrganizationId) => Io<Option.Option<Organization>>
    readonly updateSettings: (id: OrganizationId, settings: Organization["settings"]) => Io<void>
  }
>() {}

export class UsersRepo extends Context.Tag("@costline/core/UsersRepo")<
  UsersRepo,
  {
    /** Fails with AlreadyExists when the email is taken in the organization (case-insensitive). */
    readonly insert: (user: User) => Io<void, AlreadyExists>
    readonly findByEmail: (organizationId: OrganizationId, email: string) => Io<Option.Option<User>>
    readonly findById: (organizationId: OrganizationId, id: UserId) => Io<Option.Option<User>>
    readonly delete: (organizationId: OrganizationId, id: UserId) => Io<boolean>
  }
>() {}

export class ApiKeysRepo extends Context.Tag("@costline/core/ApiKeysRepo")<
  ApiKeysRepo,
  {
    readonly insert: (key: ApiKey, tokenHash: string) => Io<void>
    readonly findByHash: (tokenHash: string) => Io<Option.Option<ApiKey>>
    readonly findById: (organizationId: OrganizationId, id: ApiKey["id"]) => Io<Option.Option<ApiKey>>
    /** Sets revoked_at if not yet revoked; true when this call revoked it. */
    readonly revoke: (organizationId: OrganizationId, id: ApiKey["id"], at: Date) => Io<boolean>
  }
>() {}

export class SessionsRepo extends Context.Tag("@costline/core/SessionsRepo")<
  SessionsRepo,
  {
    readonly insert: (session: Session, tokenHash: string) => Io<void>
    readonly findByHash: (tokenHash: string) => Io<Option.Option<Session>>
    /** Sets revoked_at if not yet revoked; true when this call revoked it. */
    readonly revoke: (id: SessionId, at: Date) => Io<boolean>
    /** Revokes every live session of a user; returns how many. */
    readonly revokeAllForUser: (organizationId: OrganizationId, userId: UserId, at: Date) => Io<number>
  }
>() {}

export class RoleAssignmentsRepo extends Context.Tag("@costline/core/RoleAssignmentsRepo")<
  RoleAssignmentsRepo,
  {
    readonly insert: (assignment: RoleAssignment) => Io<void, AlreadyExists>
    /** Assignments made directly to the subject. */
    readonly listForSubject: (
      organizationId: OrganizationId,
      subjectType: RoleAssignment["subject_type"],
      subjectId: string
    ) => Io<ReadonlyArray<RoleAssignment>>
    readonly deleteForSubject: (
      organizationId: OrganizationId,
      subjectType: RoleAssignment["subject_type"],
      subjectId: string
    ) => Io<ReadonlyArray<RoleAssignment>>
  }
>() {}
