/** The teams service. Every change appends its `teams` audit record in the same transaction. */
import { Context, DateTime, Effect, Layer } from "effect"
import { AuditLog } from "../audit/AuditLog.js"
import { makeGrantGuard } from "../identity/internal/GrantGuard.js"
import type { ScopedGrant } from "../identity/GrantRule.js"
import type { Role } from "../identity/Domain.js"
import type { ScopedRole } from "../identity/RoleAssignment.js"
import type { Actor } from "../shared/Actor.js"
import { conditionalWrite, stale, written } from "../shared/internal/ConditionalWrite.js"
import type { Conflict, Forbidden, InvalidPageToken, ValidationFailed } from "../shared/Errors.js"
import { AlreadyExists, NotFound, orNotFound, type StoreUnavailable } from "../shared/Errors.js"
import * as ETag from "../shared/ETag.js"
import { newId, type OrganizationId, type TeamId } from "../shared/Ids.js"
import type { KeysetRequest, OffsetRequest, Page, RequestFields } from "../shared/Listing.js"
import type * as Precondition from "../shared/Precondition.js"
import { Transactor } from "../shared/Transactor.js"
import { type CreateTeam, Team, TeamAudit, type TeamMember, type TeamPatch, teamValues } from "./Domain.js"

export { teamValues } from "./Domain.js"
import { makeTeamContentReader } from "./TeamContent.js"
import { TeamsRepo } from "./Repo.js"

/**
 * What a team's `default_member_role` confers: on the all-users team, that role at organization
 * scope to every member; on any other team nothing (a member's role there is a label, and the
 * team's own grants are what members inherit).
 * @since 0.1.0
 * @category utils
 */
export const defaultRoleConfers = (
  team: { readonly is_all_users: boolean; readonly organization_id: OrganizationId },
  role: Role
): ReadonlyArray<ScopedGrant> =>
  team.is_all_users ? [{ role, scope: { type: "organization", id: team.organization_id } }] : []

/**
 * Strong ETag of what a team update can change; stored with the team whenever it is written.
 * @since 0.1.0
 * @category utils
 */
export const teamEtag = (team: Parameters<typeof teamValues>[0]): string => ETag.compute(teamValues(team))

/**
 * A team with its counts and one page of its members and of its roles.
 * @since 0.1.0
 * @category models
 */
export interface TeamDetails<Members, Roles> {
  readonly team: Team
  readonly member_count: number
  readonly role_count: number
  readonly members: Members
  readonly roles: Roles
}

/**
 * @since 0.1.0
 * @category models
 */
export interface DetailsQuery<Request> {
  readonly members: Request
  readonly roles: Request
  readonly fields: { readonly members: RequestFields; readonly roles: RequestFields }
}

type ListFailure = InvalidPageToken | ValidationFailed | NotFound | StoreUnavailable

/**
 * @since 0.1.0
 * @category tags
 */
export class Teams extends Context.Tag("@costline/core/Teams")<
  Teams,
  {
    /**
     * Creates a team with no members or roles; a second all-users team → AlreadyExists. An
     * all-users team grants its `default_member_role` to everyone, so the actor must be able to
     * grant it (GrantRule): Forbidden otherwise, audited as a failure.
     */
    readonly create: (
      actor: Actor,
      organizationId: OrganizationId,
      input: CreateTeam
    ) => Effect.Effect<Team, AlreadyExists | Forbidden | StoreUnavailable>
    readonly get: (organizationId: OrganizationId, id: TeamId) => Effect.Effect<Team, NotFound | StoreUnavailable>
    /**
     * Applies a merge patch. Under an `If-Match`, the team must still have that ETag
     * (PreconditionFailed otherwise, also when another writer changes it meanwhile). A patch that
     * changes nothing writes nothing and returns the team as it is. A new `default_member_role` of
     * the all-users team is a grant to everyone (GrantRule): Forbidden unless the actor may make it.
     */
    readonly update: <P extends Precondition.Precondition>(
      actor: Actor,
      organizationId: OrganizationId,
      id: TeamId,
      patch: TeamPatch,
      precondition: P
    ) => Effect.Effect<Team, NotFound | Precondition.Failed<P> | Conflict | Forbidden | StoreUnavailable>
    readonly details: (
      organizationId: OrganizationId,
      id: TeamId,
      query: DetailsQuery<KeysetRequest>
    ) => Effect.Effect<TeamDetails<Page<TeamMember>, Page<ScopedRole>>, ListFailure>
    readonly detailsOffset: (
      organizationId: OrganizationId,
      id: TeamId,
      query: DetailsQuery<OffsetRequest>
    ) => Effect.Effect<
      TeamDetails<ReadonlyArray<TeamMember>, ReadonlyArray<ScopedRole>>,
      ValidationFailed | NotFound | StoreUnavailable
    >
  }
>() {}

/**
 * @since 0.1.0
 * @category constructors
 */
export const make = Effect.gen(function*() {
  const repo = yield* TeamsRepo
  const content = yield* makeTeamContentReader
  const audit = yield* AuditLog
  const tx = yield* Transactor
  const guard = yield* makeGrantGuard

  const get = (organizationId: OrganizationId, id: TeamId) =>
    repo.findById(organizationId, id).pipe(orNotFound("team", id))

  const counts = (team: Team) =>
    Effect.all({ member_count: content.countMembers(team), role_count: content.countRoles(team) })

  /** Decides the change from the team as stored now and writes it if that is still current. */
  const write = (actor: Actor, organizationId: OrganizationId, patch: TeamPatch) => (before: Team) =>
    Effect.gen(function*() {
      const changed = {
        name: patch.name?.trim() ?? before.name,
        default_member_role: patch.default_member_role ?? before.default_member_role
      }
      if (changed.name === before.name && changed.default_member_role === before.default_member_role) return written(before)
      if (changed.default_member_role !== before.default_member_role) {
        yield* guard.require(actor, organizationId, defaultRoleConfers(before, changed.default_member_role))
      }
      const after = new Team({ ...before, ...changed, updated_at: yield* DateTime.now, etag: teamEtag({ ...before, ...changed }) })
      if (!(yield* repo.update(after, before))) return stale
      yield* audit.record(actor, organizationId, TeamAudit.updated(before, after))
      return written(after)
    })

  return Teams.of({
    create: (actor, organizationId, input) =>
      tx.withTransaction(Effect.gen(function*() {
        yield* guard.require(actor, organizationId, defaultRoleConfers({ ...input, organization_id: organizationId }, input.default_member_role))
        const now = yield* DateTime.now
        const values = { name: input.name.trim(), is_all_users: input.is_all_users, default_member_role: input.default_member_role }
        const team = new Team({
          id: yield* newId<"TeamId">(),
          organization_id: organizationId,
          ...values,
          created_at: now,
          updated_at: now,
          etag: teamEtag(values)
        })
        yield* repo.insert(team).pipe(
          Effect.catchTag("AlreadyExists", () =>
            Effect.fail(new AlreadyExists({ message: "the organization already has an all-users team" })))
        )
        yield* audit.record(actor, organizationId, TeamAudit.created(team))
        return team
      })).pipe(guard.audited(actor, organizationId, TeamAudit.refused("create", null, teamValues(input)))),
    get,
    update: (actor, organizationId, id, patch, precondition) =>
      tx.withTransaction(conditionalWrite({
        what: "the team",
        precondition,
        read: get(organizationId, id),
        write: write(actor, organizationId, patch)
      })).pipe(
        guard.audited(actor, organizationId, TeamAudit.refused("update", id, { ...patch }))
      ),
    details: (organizationId, id, query) =>
      Effect.gen(function*() {
        const team = yield* get(organizationId, id)
        return {
          team,
          ...(yield* counts(team)),
          members: yield* content.memberPage(team, query.members, query.fields.members),
          roles: yield* content.rolePage(team, query.roles, query.fields.roles)
        }
      }),
    detailsOffset: (organizationId, id, query) =>
      Effect.gen(function*() {
        const team = yield* get(organizationId, id)
        const members = yield* content.memberOffsetPage(team, query.members, query.fields.members)
        const roles = yield* content.roleOffsetPage(team, query.roles, query.fields.roles)
        return { team, ...(yield* counts(team)), members: members.items, roles: roles.items }
      })
  })
})

/**
 * @since 0.1.0
 * @category layers
 */
export const layer = Layer.effect(Teams, make)
