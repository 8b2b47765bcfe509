/** The teams service. Every change appends its `teams` audit record in the same transaction. */
import { Context, DateTime, Effect, Layer, Option } from "effect"
import { AuditLog } from "../audit/AuditLog.js"
import * as ETag from "../shared/ETag.js"
import type { Actor } from "../shared/Actor.js"
import { AlreadyExists, NotFound, type StoreUnavailable } from "../shared/Errors.js"
import { newId, type OrganizationId, type TeamId } from "../shared/Ids.js"
import { Transactor } from "../shared/Transactor.js"
import { type CreateTeam, Team } from "./Domain.js"
import { TeamsRepo } from "./Repo.js"

export const teamValues = (team: Team) => ({
  name: team.name,
  is_all_users: team.is_all_users,
  default_member_role: team.default_member_role
})

/** Strong ETag of what a team update can change. */
export const teamEtag = (team: Team): string => ETag.compute(teamValues(team))

export class Teams extends Context.Tag("@costline/core/Teams")<
  Teams,
  {
    /** Creates a team with no members or roles; a second all-users team → AlreadyExists. */
    readonly create: (
      actor: Actor,
      organizationId: OrganizationId,
      input: CreateTeam
    ) => Effect.Effect<Team, AlreadyExists | StoreUnavailable>
    readonly get: (organizationId: OrganizationId, id: TeamId) => Effect.Effect<Team, NotFound | StoreUnavailable>
  }
>() {}

export const make = Effect.gen(function*() {
  const repo = yield* TeamsRepo
  const audit = yield* AuditLog
  const tx = yield* Transactor

  return Teams.of({
    create: (actor, organizationId, input) =>
      tx.withTransaction(Effect.gen(function*() {
        const now = yield* DateTime.now
        const team = new Team({
          id: yield* newId<"TeamId">(),
          organization_id: organizationId,
          name: input.name.trim(),
          is_all_users: input.is_all_users,
          default_member_role: input.default_member_role,
          created_at: now,
          updated_at: now
        })
        yield* repo.insert(team).pipe(
          Effect.catchTag("AlreadyExists", () =>
            Effect.fail(new AlreadyExists({ message: "the organization already has an all-users team" })))
        )
        yield* audit.record(actor, organizationId, {
          target: { resource: "teams" },
          table_name: "teams",
          record_id: team.id,
          operation: "create",
          new_values: teamValues(team)
        })
        return team
      })),
    get: (organizationId, id) =>
      repo.findById(organizationId, id).pipe(
        Effect.flatMap(Option.match({
          onNone: () => Effect.fail(new NotFound({ resource: "team", id })),
          onSome: Effect.succeed
        }))
      )
  })
})

export const layer = Layer.effect(Teams, make)
