/**
 * Adding members to a team. A member is a user (named by email) or an SSO group (named by its
 * mapping's name); both must exist in the organization. Audited as `teams` / `team_members`.
 */
import { Context, DateTime, Effect, Layer, Option } from "effect"
import { AuditLog } from "../audit/AuditLog.js"
import { makeGrantGuard } from "../identity/internal/GrantGuard.js"
import { conferredBy } from "../identity/GrantRule.js"
import { RoleAssignmentsRepo, UsersRepo } from "../identity/Repo.js"
import { normalizeEmail } from "../identity/Users.js"
import { SsoGroupsRepo } from "../ssogroups/Repo.js"
import type { Actor } from "../shared/Actor.js"
import { AlreadyExists, Conflict, type Forbidden, type NotFound, type StoreUnavailable, ValidationFailed } from "../shared/Errors.js"
import { newId, type OrganizationId, type TeamId } from "../shared/Ids.js"
import { Transactor } from "../shared/Transactor.js"
import { type AddTeamMember, memberTypeOf, TeamMember, TeamMemberAudit } from "./Domain.js"
import { TeamMembersRepo } from "./Repo.js"
import { Teams } from "./Teams.js"

/**
 * @since 0.1.0
 * @category tags
 */
export class TeamMembers extends Context.Tag("@costline/core/TeamMembers")<
  TeamMembers,
  {
    /**
     * Adds a member with the given role, else the team's default. The all-users team already
     * holds everyone (Conflict); a member listed twice is AlreadyExists. The member inherits the
     * team's roles, so the actor must be able to grant each of them (GrantRule): Forbidden
     * otherwise, audited as a failure.
     */
    readonly add: (
      actor: Actor,
      organizationId: OrganizationId,
      teamId: TeamId,
      input: AddTeamMember
    ) => Effect.Effect<TeamMember, NotFound | Conflict | AlreadyExists | ValidationFailed | Forbidden | StoreUnavailable>
  }
>() {}

const unknownIdentifier = (message: string) => ValidationFailed.single("identifier", "not_found", message)

/**
 * @since 0.1.0
 * @category constructors
 */
export const make = Effect.gen(function*() {
  const teams = yield* Teams
  const members = yield* TeamMembersRepo
  const users = yield* UsersRepo
  const ssoGroups = yield* SsoGroupsRepo
  const assignments = yield* RoleAssignmentsRepo
  const guard = yield* makeGrantGuard
  const audit = yield* AuditLog
  const tx = yield* Transactor

  /** The member's id and current identifier, if they exist in the organization. */
  const subjectOf = (organizationId: OrganizationId, identifier: string) =>
    memberTypeOf(identifier) === "user"
      ? users.findByEmail(organizationId, normalizeEmail(identifier)).pipe(
        Effect.flatMap(Option.match({
          onNone: () => Effect.fail(unknownIdentifier(`no member ${identifier} in this organization`)),
          onSome: (user) => Effect.succeed({ type: "user" as const, id: user.id as string, identifier: user.email })
        }))
      )
      : ssoGroups.findByName(organizationId, identifier).pipe(
        Effect.flatMap(Option.match({
          onNone: () => Effect.fail(unknownIdentifier(`no SSO group mapping named '${identifier}' in this organization`)),
          onSome: (group) => Effect.succeed({ type: "sso_group" as const, id: group.id as string, identifier: group.name })
        }))
      )

  return TeamMembers.of({
    add: (actor, organizationId, teamId, input) =>
      tx.withTransaction(Effect.gen(function*() {
        const team = yield* teams.get(organizationId, teamId)
        if (team.is_all_users) {
          return yield* new Conflict({ message: "the all-users team includes every member of the organization already" })
        }
        const subject = yield* subjectOf(organizationId, input.identifier.trim())
        yield* guard.require(actor, organizationId, conferredBy(yield* assignments.listForSubject(organizationId, "team", team.id)))
        const member = new TeamMember({
          id: yield* newId<"TeamMemberId">(),
          team_id: team.id,
          type: subject.type,
          subject_id: subject.id,
          identifier: subject.identifier,
          role: input.role ?? team.default_member_role,
          added_at: yield* DateTime.now
        })
        yield* members.insert(organizationId, member).pipe(
          Effect.catchTag("AlreadyExists", () =>
            Effect.fail(new AlreadyExists({ message: `${member.identifier} is already a member of the team` })))
        )
        yield* audit.record(actor, organizationId, TeamMemberAudit.created(member))
        return member
      })).pipe(guard.audited(actor, organizationId, TeamMemberAudit.refused("create", null, {
        team_id: teamId,
        identifier: input.identifier,
        role: input.role ?? null
      })))
  })
})

/**
 * @since 0.1.0
 * @category layers
 */
export const layer = Layer.effect(TeamMembers, make)
