/** A core `Team` in the v1 and v2 shapes. */
import { type Team, teamEtag } from "@costline/core"
import type { TeamV1, TeamV2 } from "./Api.js"

export const toTeamV1 = (team: Team): typeof TeamV1.Type => ({
  id: team.id,
  name: team.name,
  is_all_users: team.is_all_users,
  default_member_role: team.default_member_role,
  created_at: team.created_at,
  updated_at: team.updated_at
})

export const toTeamV2 = (team: Team): typeof TeamV2.Type => ({
  ...toTeamV1(team),
  etag: teamEtag(team),
  create_time: team.created_at,
  update_time: team.updated_at
})
