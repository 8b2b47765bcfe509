/** Handlers of the teams groups: call core's team services and shape the answer. */
import { Ids, Precondition, TeamMembers, TeamRoles, Teams } from "@costline/core"
import { Effect } from "effect"
import { CostlineApi } from "../Api.js"
import * as Group from "../Group.js"
import { Caller } from "../Caller.js"
import { parseId } from "../Ids.js"
import * as Preconditions from "../Preconditions.js"
import * as Respond from "../Respond.js"
import { success } from "../Success.js"
import { V2_PREFIX } from "../Versions.js"
import { toDetailsQueryV1, toDetailsQueryV2 } from "./Params.js"
import {
  toTeamDetailsV1,
  toTeamDetailsV2,
  toTeamMember,
  toTeamRoleV2,
  toTeamV1,
  toTeamV2
} from "./Representation.js"

const teamId = parseId(Ids.TeamId, "team")

const teamUrl = (id: string) => `${V2_PREFIX}/teams/${id}`

/** The services every handler uses, and the caller's team from the path. */
const services = Effect.all({ teams: Teams.Teams, members: TeamMembers.TeamMembers, roles: TeamRoles.TeamRoles })

const inTeam = (rawId: string) => Effect.all({ caller: Caller, id: teamId(rawId) })

export const TeamsHttpLive = Group.group(CostlineApi, "teams", (handlers) =>
  Effect.map(services, ({ members, roles, teams }) =>
    handlers
      .handle("createTeam", ({ payload }) =>
        Effect.gen(function*() {
          const caller = yield* Caller
          const team = yield* teams.create(caller.actor, caller.organizationId, payload)
          const shown = toTeamV2(team)
          yield* Respond.setHeaders({ location: teamUrl(team.id), etag: shown.etag })
          return shown
        }))
      .handle("getTeam", ({ path, urlParams }) =>
        Effect.gen(function*() {
          const { caller, id } = yield* inTeam(path.team_id)
          const shown = toTeamDetailsV2(yield* teams.details(caller.organizationId, id, toDetailsQueryV2(urlParams)))
          yield* Respond.setHeaders({ etag: shown.etag })
          return shown
        }))
      .handle("updateTeam", ({ headers, path, payload }) =>
        Effect.gen(function*() {
          const { caller, id } = yield* inTeam(path.team_id)
          const precondition = yield* Preconditions.optional(headers)
          const shown = toTeamV2(yield* teams.update(caller.actor, caller.organizationId, id, payload, precondition))
          yield* Respond.setHeaders({ etag: shown.etag })
          return shown
        }))
      .handle("addTeamMember", ({ path, payload }) =>
        Effect.gen(function*() {
          const { caller, id } = yield* inTeam(path.team_id)
          const member = yield* members.add(caller.actor, caller.organizationId, id, payload)
          // Members have no URL of their own: they are listed by the team's details.
          yield* Respond.setHeaders({ location: teamUrl(id) })
          return toTeamMember(member)
        }))
      .handle("grantTeamRole", ({ path, payload }) =>
        Effect.gen(function*() {
          const { caller, id } = yield* inTeam(path.team_id)
          const role = yield* roles.grant(caller.actor, caller.organizationId, id, payload)
          yield* Respond.setHeaders({ location: teamUrl(id) })
          return toTeamRoleV2(role)
        }))
      .handle("revokeTeamRole", ({ path }) =>
        Effect.gen(function*() {
          const { caller, id } = yield* inTeam(path.team_id)
          yield* roles.revoke(caller.actor, caller.organizationId, id, path.role_id)
        }))))

export const TeamsV1HttpLive = Group.group(CostlineApi, "teamsV1", (handlers) =>
  Effect.map(services, ({ members, roles, teams }) =>
    handlers
      .handle("createTeam", ({ payload }) =>
        Effect.flatMap(Caller, (caller) => Effect.map(teams.create(caller.actor, caller.organizationId, payload), toTeamV1)))
      .handle("updateTeam", ({ path, payload }) =>
        Effect.gen(function*() {
          const { caller, id } = yield* inTeam(path.team_id)
          return toTeamV1(yield* teams.update(caller.actor, caller.organizationId, id, payload, Precondition.none))
        }))
      .handle("getTeam", ({ path, urlParams }) =>
        Effect.gen(function*() {
          const { caller, id } = yield* inTeam(path.team_id)
          return toTeamDetailsV1(yield* teams.detailsOffset(caller.organizationId, id, toDetailsQueryV1(urlParams)))
        }))
      .handle("addTeamMember", ({ path, payload }) =>
        Effect.gen(function*() {
          const { caller, id } = yield* inTeam(path.team_id)
          return toTeamMember(yield* members.add(caller.actor, caller.organizationId, id, payload))
        }))
      .handle("revokeTeamRole", ({ path }) =>
        Effect.gen(function*() {
          const { caller, id } = yield* inTeam(path.team_id)
          yield* roles.revoke(caller.actor, caller.organizationId, id, path.role_id)
          return success
        }))))
