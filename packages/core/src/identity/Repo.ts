/** Storage contracts of the identity area. Stores implement them; services never see SQL. */
import { Context, type Effect, type Option } from "effect"
import type { AlreadyExists, StoreUnavailable } from "../shared/Errors.js"
import type { OrganizationId, RoleAssignmentId, SessionId, UserId } from "../shared/Ids.js"
import type { Window } from "../shared/Listing.js"
import type { ApiKey, Organization, Session, User } from "./Domain.js"
import type { Invitation, InvitationId } from "./Invitation.js"
import type { RoleAssignment } from "./RoleAssignment.js"

type Io<A, E = never> = Effect.Effect<A, E | StoreUnavailable>

/**
 * @since 0.1.0
 * @category tags
 */
export class OrganizationsRepo extends Context.Tag("@costline/core/OrganizationsRepo")<
  OrganizationsRepo,
  {
    readonly insert: (organization: Organization) => Io<void, AlreadyExists>
    readonly findById: (id: OrganizationId) => Io<Option.Option<Organization>>
    /** Every organization, ordered by id. */
    readonly list: Io<ReadonlyArray<Organization>>
    readonly updateSettings: (id: OrganizationId, settings: Organization["settings"]) => Io<void>
  }
>() {}

/**
 * @since 0.1.0
 * @category tags
 */
export class UsersRepo extends Context.Tag("@costline/core/UsersRepo")<
  UsersRepo,
  {
    /** Fails with AlreadyExists when the email is taken in the organization (case-insensitive). */
    readonly insert: (user: User) => Io<void, AlreadyExists>
    readonly findByEmail: (organizationId: OrganizationId, email: string) => Io<Option.Option<User>>
    readonly findById: (organizationId: OrganizationId, id: UserId) => Io<Option.Option<User>>
    readonly delete: (organizationId: OrganizationId, id: UserId) => Io<boolean>
    /** Members ordered by (created_at, id): the implicit members of the all-users team. */
    readonly list: (organizationId: OrganizationId, window: Window) => Io<ReadonlyArray<User>>
    readonly count: (organizationId: OrganizationId) => Io<number>
  }
>() {}

/**
 * @since 0.1.0
 * @category tags
 */
export class ApiKeysRepo extends Context.Tag("@costline/core/ApiKeysRepo")<
  ApiKeysRepo,
  {
    readonly insert: (key: ApiKey, tokenHash: string) => Io<void>
    readonly findByHash: (tokenHash: string) => Io<Option.Option<ApiKey>>
    readonly findById: (organizationId: OrganizationId, id: ApiKey["id"]) => Io<Option.Option<ApiKey>>
    /** Every key of the organization, revoked and expired ones included, ordered by (created_at, id). */
    readonly list: (organizationId: OrganizationId) => Io<ReadonlyArray<ApiKey>>
    /** Records a use at `at` unless one was recorded after `since`: at most one write per key and interval. */
    readonly touch: (id: ApiKey["id"], at: Date, since: Date) => Io<void>
    /** Sets revoked_at if not yet revoked; true when this call revoked it. */
    readonly revoke: (organizationId: OrganizationId, id: ApiKey["id"], at: Date) => Io<boolean>
  }
>() {}

/**
 * @since 0.1.0
 * @category tags
 */
export class SessionsRepo extends Context.Tag("@costline/core/SessionsRepo")<
  SessionsRepo,
  {
    readonly insert: (session: Session, tokenHash: string) => Io<void>
    readonly findByHash: (tokenHash: string) => Io<Option.Option<Session>>
    /** Sets revoked_at if not yet revoked; true when this call revoked it. */
    readonly revoke: (id: SessionId, at: Date) => Io<boolean>
    /** Revokes every live session of a user; returns the ids of those this call revoked. */
    readonly revokeAllForUser: (organizationId: OrganizationId, userId: UserId, at: Date) => Io<ReadonlyArray<SessionId>>
  }
>() {}

/**
 * @since 0.1.0
 * @category tags
 */
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
    /** Assignments made directly to any of the subjects, ordered by (created_at, id). */
    readonly listForSubjects: (
      organizationId: OrganizationId,
      subjectType: RoleAssignment["subject_type"],
      subjectIds: ReadonlyArray<string>
    ) => Io<ReadonlyArray<RoleAssignment>>
    /** One window of a subject's assignments, ordered by (created_at, id). */
    readonly listWindow: (
      organizationId: OrganizationId,
      subjectType: RoleAssignment["subject_type"],
      subjectId: string,
      window: Window
    ) => Io<ReadonlyArray<RoleAssignment>>
    readonly countForSubject: (
      organizationId: OrganizationId,
      subjectType: RoleAssignment["subject_type"],
      subjectId: string
    ) => Io<number>
    readonly findById: (organizationId: OrganizationId, id: RoleAssignmentId) => Io<Option.Option<RoleAssignment>>
    /** Deletes one assignment; returns it, or None when it did not exist. */
    readonly deleteById: (organizationId: OrganizationId, id: RoleAssignmentId) => Io<Option.Option<RoleAssignment>>
    readonly deleteForSubject: (
      organizationId: OrganizationId,
      subjectType: RoleAssignment["subject_type"],
      subjectId: string
    ) => Io<ReadonlyArray<RoleAssignment>>
  }
>() {}

/**
 * @since 0.1.0
 * @category tags
 */
export class InvitationsRepo extends Context.Tag("@costline/core/InvitationsRepo")<
  InvitationsRepo,
  {
    /** Stores the invitation with its token's hash. Fails with AlreadyExists while another invitation of the same email is open. */
    readonly insert: (invitation: Invitation, tokenHash: string) => Io<void, AlreadyExists>
    /** Sets revoked_at if the invitation is open (neither revoked nor accepted); returns it as it was, or None. */
    readonly revoke: (organizationId: OrganizationId, id: InvitationId, at: Date) => Io<Option.Option<Invitation>>
    /** Revokes the open invitations of `email` that expired by `at` (so that it can be invited again); returns them as they were. */
    readonly revokeExpired: (organizationId: OrganizationId, email: string, at: Date) => Io<ReadonlyArray<Invitation>>
    /**
     * Sets accepted_at on the one invitation of the token's hash that is open, unexpired at `at`
     * and for `email`, in one statement: of concurrent acceptances exactly one gets it. Returns it
     * as it was, or None.
     */
    readonly accept: (organizationId: OrganizationId, tokenHash: string, email: string, at: Date) => Io<Option.Option<Invitation>>
    /** Invitations that can still be accepted at `at` (open, unexpired), ordered by (created_at, id). */
    readonly listPending: (organizationId: OrganizationId, at: Date) => Io<ReadonlyArray<Invitation>>
  }
>() {}
