/**
 * An integrator's own code on top of costline's core: a "squad" is a team created together with
 * its members, all or nothing. It runs in one store transaction, so it behaves the same on every
 * store, which is what squads.test.ts checks on SQLite and on Postgres.
 */
import { Team, TeamMembers, Teams, Transactor } from "@costline/core"
import type { Actor, Ids } from "@costline/core"
import { Effect } from "effect"

export interface Squad {
  readonly name: string
  /** Emails of the organization's users, or names of its SSO groups. */
  readonly members: ReadonlyArray<string>
}

/** The team with every member, or (any failure) no team at all. */
export const createSquad = (actor: Actor.Actor, organizationId: Ids.OrganizationId, squad: Squad) =>
  Effect.gen(function*() {
    const tx = yield* Transactor.Transactor
    const teams = yield* Teams.Teams
    const members = yield* TeamMembers.TeamMembers
    return yield* tx.withTransaction(Effect.gen(function*() {
      const team = yield* teams.create(actor, organizationId, new Team.CreateTeam({ name: squad.name }))
      yield* Effect.forEach(
        squad.members,
        (identifier) => members.add(actor, organizationId, team.id, new Team.AddTeamMember({ identifier })),
        { discard: true }
      )
      return team satisfies Team.Team
    }))
  })
