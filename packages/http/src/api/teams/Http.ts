/** Handlers of the teams groups: authorize, call core's `Teams`, shape the answer. */
import { HttpApiBuilder } from "@effect/platform"
import { Authorization, type CreateTeam, Permissions, teamEtag, Teams } from "@costline/core"
import { Effect } from "effect"
import { CostlineApi } from "../Api.js"
import { Caller } from "../Caller.js"
import * as Respond from "../Respond.js"
import { V2_PREFIX } from "../Versions.js"
import { toTeamV1, toTeamV2 } from "./Representation.js"

const makeCreateTeam = Effect.gen(function*() {
  const authorization = yield* Authorization
  const teams = yield* Teams
  return (input: CreateTeam) =>
    Effect.gen(function*() {
      const caller = yield* Caller
      // A refused creation is audited as a failed `teams` create with what was asked for.
      yield* authorization.require(caller.principal, Permissions.createTeam, {
        requestId: caller.requestId,
        entry: {
          target: { resource: "teams" },
          table_name: "teams",
          record_id: null,
          operation: "create",
          new_values: { name: input.name, is_all_users: input.is_all_users, default_member_role: input.default_member_role }
        }
      })
      return yield* teams.create(caller.actor, caller.organizationId, input)
    })
})

export const TeamsHttpLive = HttpApiBuilder.group(CostlineApi, "teams", (handlers) =>
  Effect.map(makeCreateTeam, (createTeam) =>
    handlers.handle("createTeam", ({ payload }) =>
      createTeam(payload).pipe(
        Effect.tap((team) => Respond.setHeaders({ location: `${V2_PREFIX}/teams/${team.id}`, etag: teamEtag(team) })),
        Effect.map(toTeamV2)
      ))))

export const TeamsV1HttpLive = HttpApiBuilder.group(CostlineApi, "teamsV1", (handlers) =>
  Effect.map(makeCreateTeam, (createTeam) =>
    handlers.handle("createTeam", ({ payload }) => Effect.map(createTeam(payload), toTeamV1))))
