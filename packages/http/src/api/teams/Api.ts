/** Teams: `POST /v2/teams` and its deprecated v1 twin `POST /api/{organization_id}/teams`. */
import { HttpApiEndpoint, HttpApiGroup } from "@effect/platform"
import { CreateTeam, MemberRole, TeamId } from "@costline/core"
import { Schema } from "effect"
import { Declared } from "../Errors.js"
import { OrganizationIdParam, SuccessorVersion, v1, v2 } from "../Versions.js"

export const TeamV1 = Schema.Struct({
  id: TeamId,
  name: Schema.String,
  is_all_users: Schema.Boolean,
  default_member_role: MemberRole,
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

export class TeamsApi extends v2(
  HttpApiGroup.make("teams").add(
    HttpApiEndpoint.post("createTeam", "/teams")
      .setPayload(CreateTeam)
      .addSuccess(TeamV2, { status: 201 })
      .addError(Declared.AlreadyExists)
  )
) {}

export class TeamsV1Api extends v1(
  HttpApiGroup.make("teamsV1").add(
    HttpApiEndpoint.post("createTeam")`/${OrganizationIdParam}/teams`
      .setPayload(CreateTeam)
      .addSuccess(TeamV1)
      .addError(Declared.AlreadyExists)
      .annotate(SuccessorVersion, "/v2/teams")
  )
) {}
