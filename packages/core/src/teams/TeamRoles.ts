/**
 * Roles granted to a team, which every member inherits. Stored as role assignments of subject
 * `team`; audited as `teams` / `team_roles`.
 */
import { Context, Effect, Either, Layer, Option } from "effect"
import { AuditLog } from "../audit/AuditLog.js"
import { RoleAssignmentsRepo } from "../identity/Repo.js"
import { makeGrants } from "../identity/internal/Grants.js"
import type { ScopedRole } from "../identity/RoleAssignment.js"
import type { RoleGrant } from "../identity/Scope.js"
import type { Actor } from "../shared/Actor.js"
import { AlreadyExists, type Forbidden, NotFound, type StoreUnavailable, type ValidationFailed } from "../shared/Errors.js"
import { type OrganizationId, parseId, RoleAssignmentId, type TeamId } from "../shared/Ids.js"
import { TeamRoleAudit } from "./Domain.js"
import { Transactor } from "../shared/Transactor.js"
import { Teams } from "./Teams.js"

/**
 * @since 0.1.0
 * @category tags
 */
export class TeamRoles extends Context.Tag("@costline/core/TeamRoles")<
  TeamRoles,
  {
    /**
     * The same role at the same scope twice is AlreadyExists; the scope must exist in the
     * organization. Every member inherits the role, so the actor must be able to grant it
     * (GrantRule): Forbidden otherwise, audited as a failure.
     */
    readonly grant: (
      actor: Actor,
      organizationId: OrganizationId,
      teamId: TeamId,
      grant: RoleGrant
    ) => Effect.Effect<ScopedRole, NotFound | ValidationFailed | AlreadyExists | Forbidden | StoreUnavailable>
    /** A role id that is not one of this team's grants is NotFound. */
    readonly revoke: (
      actor: Actor,
      organizationId: OrganizationId,
      teamId: TeamId,
      roleId: string
    ) => Effect.Effect<void, NotFound | StoreUnavailable>
  }
>() {}

const parseRoleId = parseId(RoleAssignmentId, "team_role")

/**
 * @since 0.1.0
 * @category constructors
 */
export const make = Effect.gen(function*() {
  const teams = yield* Teams
  const assignments = yield* RoleAssignmentsRepo
  const grants = yield* makeGrants
  const audit = yield* AuditLog
  const tx = yield* Transactor

  return TeamRoles.of({
    grant: (actor, organizationId, teamId, input) =>
      tx.withTransaction(Effect.gen(function*() {
        const team = yield* teams.get(organizationId, teamId)
        const grant = yield* grants.grant(actor, organizationId, { type: "team", id: team.id }, input, (duplicate) =>
          new AlreadyExists({ message: `the team already holds ${duplicate.role} at this ${duplicate.scope_type} scope` }))
        yield* audit.record(actor, organizationId, TeamRoleAudit.created(grant))
        const [role] = yield* grants.named(organizationId, [grant])
        return role!
      })).pipe(grants.guard.audited(actor, organizationId, TeamRoleAudit.refused("create", null, {
        team_id: teamId,
        role: input.role,
        scope_type: input.scope.type,
        scope_id: input.scope.id ?? null
      }))),
    revoke: (actor, organizationId, teamId, roleId) =>
      tx.withTransaction(Effect.gen(function*() {
        const team = yield* teams.get(organizationId, teamId)
        const notFound = new NotFound({ resource: "team_role", id: roleId })
        const parsed = parseRoleId(roleId)
        const grant = Either.isRight(parsed) ? yield* assignments.findById(organizationId, parsed.right) : Option.none()
        if (Option.isNone(grant) || grant.value.subject_type !== "team" || grant.value.subject_id !== team.id) {
          return yield* notFound
        }
        if (Option.isNone(yield* assignments.deleteById(organizationId, grant.value.id))) return yield* notFound
        yield* audit.record(actor, organizationId, TeamRoleAudit.deleted(grant.value))
      }))
  })
})

/**
 * @since 0.1.0
 * @category layers
 */
export const layer = Layer.effect(TeamRoles, make)
