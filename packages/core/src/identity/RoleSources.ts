/** Where a member's roles come from, read from the store and merged (see EffectiveRoles). */
import { Effect } from "effect"
import type { StoreUnavailable } from "../shared/Errors.js"
import type { OrganizationId, UserId } from "../shared/Ids.js"
import { TeamsRepo } from "../teams/Repo.js"
import { type EffectiveRole, merge } from "./EffectiveRoles.js"
import { RoleAssignmentsRepo } from "./Repo.js"

/**
 * Reads a member's merged roles in three queries: their grants, their teams, the teams' grants.
 * @since 0.1.0
 * @category constructors
 */
export const makeEffectiveRolesReader = Effect.gen(function*() {
  const assignments = yield* RoleAssignmentsRepo
  const teams = yield* TeamsRepo
  return (organizationId: OrganizationId, userId: UserId): Effect.Effect<ReadonlyArray<EffectiveRole>, StoreUnavailable> =>
    Effect.gen(function*() {
      const direct = yield* assignments.listForSubject(organizationId, "user", userId)
      const memberOf = yield* teams.listForUser(organizationId, userId)
      const grants = yield* assignments.listForSubjects(organizationId, "team", memberOf.map((team) => team.id))
      const teamById = new Map(memberOf.map((team) => [team.id as string, team]))
      return merge(organizationId, {
        direct,
        allUsersTeam: memberOf.find((team) => team.is_all_users),
        inherited: grants.flatMap((grant) => {
          const team = teamById.get(grant.subject_id)
          return team === undefined ? [] : [{ team, grant }]
        })
      })
    })
})

