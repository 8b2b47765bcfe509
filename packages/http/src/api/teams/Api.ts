/**
 * Teams, their members and roles. v2: `POST /v2/teams`, `GET` and `PATCH /v2/teams/{team_id}`,
 * `POST /v2/teams/{team_id}/members`, `POST /v2/teams/{team_id}/roles` (extension) and
 * `DELETE /v2/teams/{team_id}/roles/{role_id}`. v1: their deprecated twins under
 * `/api/{organization_id}/teams`.
 */
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import { Identity, Ids, RoleScope, Team } from "@costline/core"
import { Schema } from "effect"
import { Access, type AttemptedChange, change, Requires } from "../Access.js"
import { Declared } from "../Errors.js"
import { IfMatchHeaders } from "../Preconditions.js"
import { embeddedPageOf } from "../Pages.js"
import { ScopeSchema } from "../roles/Schemas.js"
import { Success } from "../Success.js"
import { OrganizationIdParam, SuccessorVersion, v1, v2 } from "../Versions.js"
import { TeamDetailsParamsV1, TeamDetailsParamsV2 } from "./Params.js"

/** Any text: an id that is no team id names no team (404, not 422). */
const TeamIdParam = HttpApiSchema.param("team_id", Schema.String)
const RoleIdParam = HttpApiSchema.param("role_id", Schema.String)

export const TeamV1 = Schema.Struct({
  id: Ids.TeamId,
  name: Schema.String,
  is_all_users: Schema.Boolean,
  default_member_role: Team.MemberRole,
  created_at: Schema.DateTimeUtc,
  updated_at: Schema.DateTimeUtc
}).annotations({ identifier: "TeamV1" })

/** v2 mirrors v1 and adds the resource conventions: `etag`, `create_time`, `update_time`. */
export const TeamV2 = Schema.Struct({
  ...TeamV1.fields,
  etag: Schema.String,
  create_time: Schema.DateTimeUtc,
  update_time: Schema.DateTimeUtc
}).annotations({ identifier: "Team" })

export const TeamMemberSchema = Schema.Struct({
  /** The membership's id (for the all-users team's implicit members, the user's id). */
  id: Schema.String,
  type: Team.MemberType,
  /** Email address for users, group name for SSO groups. */
  identifier: Schema.String,
  role: Team.MemberRole,
  added_at: Schema.DateTimeUtc
}).annotations({ identifier: "TeamMember" })

/** The v1 team role: its scope flattened into the three ids v1 knows. */
export const TeamRoleV1 = Schema.Struct({
  id: Schema.String,
  role: Identity.Role,
  created_at: Schema.DateTimeUtc,
  dw_organization_name: Schema.NullOr(Schema.String),
  dw_account_uuid: Schema.NullOr(Schema.String),
  usage_group_id: Schema.NullOr(Schema.String)
}).annotations({ identifier: "TeamRoleV1" })

export const TeamRoleV2 = Schema.Struct({
  ...TeamRoleV1.fields,
  scope: ScopeSchema,
  create_time: Schema.DateTimeUtc
}).annotations({ identifier: "TeamRole" })

const counts = { member_count: Schema.Int, role_count: Schema.Int }

export const TeamDetailsV2 = Schema.Struct({
  ...TeamV2.fields,
  ...counts,
  members: embeddedPageOf(TeamMemberSchema),
  roles: embeddedPageOf(TeamRoleV2)
}).annotations({ identifier: "TeamDetails" })

export const TeamDetailsV1 = Schema.Struct({
  ...TeamV1.fields,
  ...counts,
  members: Schema.Array(TeamMemberSchema),
  roles: Schema.Array(TeamRoleV1)
}).annotations({ identifier: "TeamDetailsV1" })

/** v1 `PUT`: the name, and optionally the default member role (kept when left out). */
export const TeamPutV1 = Schema.Struct({
  name: Team.TeamName,
  default_member_role: Schema.optional(Team.MemberRole)
}).annotations({ identifier: "TeamPutV1" })

const changes = (table_name: string, operation: AttemptedChange["operation"], recordIdParam?: string) =>
  change("teams", table_name, operation, recordIdParam)

const createTeam = Access.createTeam(changes("teams", "create"))
const updateTeam = Access.write("teams", changes("teams", "update", "team_id"))
const addMember = Access.write("teams", changes("team_members", "create"))
const grantRole = Access.write("teams", changes("team_roles", "create"))
const revokeRole = Access.write("teams", changes("team_roles", "delete", "role_id"))
const readTeam = Access.read("teams")

/** How the docs page and the documents name and describe this group (both versions). */
const tag = OpenApi.annotations({
  title: "Teams",
  description: "Teams, their members, and the roles granted to a team (its members hold them)."
})

export class TeamsApi extends v2(
  HttpApiGroup.make("teams").annotateContext(tag)
    .add(
      HttpApiEndpoint.post("createTeam", "/teams")
        .annotate(Requires, createTeam)
        .setPayload(Team.CreateTeam)
        .addSuccess(TeamV2, { status: 201 })
        .addError(Declared.AlreadyExists)
    )
    .add(
      HttpApiEndpoint.get("getTeam")`/teams/${TeamIdParam}`
        .annotate(Requires, readTeam)
        .setUrlParams(TeamDetailsParamsV2)
        .addSuccess(TeamDetailsV2)
        .addError(Declared.InvalidPageToken)
        .addError(Declared.ValidationFailed)
    )
    .add(
      HttpApiEndpoint.patch("updateTeam")`/teams/${TeamIdParam}`
        .annotate(Requires, updateTeam)
        .setHeaders(IfMatchHeaders)
        .setPayload(Team.TeamPatch)
        .addSuccess(TeamV2)
        .addError(Declared.PreconditionFailed)
        .addError(Declared.Conflict)
        .addError(Declared.ValidationFailed)
    )
    .add(
      HttpApiEndpoint.post("addTeamMember")`/teams/${TeamIdParam}/members`
        .annotate(Requires, addMember)
        .setPayload(Team.AddTeamMember)
        .addSuccess(TeamMemberSchema, { status: 201 })
        .addError(Declared.AlreadyExists)
        .addError(Declared.Conflict)
        .addError(Declared.ValidationFailed)
    )
    .add(
      HttpApiEndpoint.post("grantTeamRole")`/teams/${TeamIdParam}/roles`
        .annotate(Requires, grantRole)
        .setPayload(RoleScope.RoleGrant)
        .addSuccess(TeamRoleV2, { status: 201 })
        .addError(Declared.AlreadyExists)
        .addError(Declared.ValidationFailed)
    )
    .add(
      HttpApiEndpoint.del("revokeTeamRole")`/teams/${TeamIdParam}/roles/${RoleIdParam}`
        .annotate(Requires, revokeRole)
        .addSuccess(HttpApiSchema.NoContent)
    )
) {}

export class TeamsV1Api extends v1(
  HttpApiGroup.make("teamsV1").annotateContext(tag)
    .add(
      HttpApiEndpoint.post("createTeam")`/${OrganizationIdParam}/teams`
        .annotate(Requires, createTeam)
        .setPayload(Team.CreateTeam)
        .addSuccess(TeamV1)
        .addError(Declared.AlreadyExists)
        .annotate(SuccessorVersion, "/v2/teams")
    )
    .add(
      HttpApiEndpoint.put("updateTeam")`/${OrganizationIdParam}/teams/${TeamIdParam}`
        .annotate(Requires, updateTeam)
        .setPayload(TeamPutV1)
        .addSuccess(TeamV1)
        .addError(Declared.Conflict)
        .annotate(SuccessorVersion, "/v2/teams/:team_id")
    )
    .add(
      HttpApiEndpoint.get("getTeam")`/${OrganizationIdParam}/teams/${TeamIdParam}`
        .annotate(Requires, readTeam)
        .setUrlParams(TeamDetailsParamsV1)
        .addSuccess(TeamDetailsV1)
        .addError(Declared.ValidationFailed)
        .annotate(SuccessorVersion, "/v2/teams/:team_id")
    )
    .add(
      HttpApiEndpoint.post("addTeamMember")`/${OrganizationIdParam}/teams/${TeamIdParam}/members`
        .annotate(Requires, addMember)
        .setPayload(Team.AddTeamMember)
        .addSuccess(TeamMemberSchema)
        .addError(Declared.AlreadyExists)
        .addError(Declared.Conflict)
        .annotate(SuccessorVersion, "/v2/teams/:team_id/members")
    )
    .add(
      HttpApiEndpoint.del("revokeTeamRole")`/${OrganizationIdParam}/teams/${TeamIdParam}/roles/${RoleIdParam}`
        .annotate(Requires, revokeRole)
        .addSuccess(Success)
        .annotate(SuccessorVersion, "/v2/teams/:team_id/roles/:role_id")
    )
) {}
