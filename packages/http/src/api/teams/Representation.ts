/** A core `Team` in the v1 and v2 shapes. */
import { type Team, teamValues } from "@costline/core"
import { createHash } from "node:crypto"
import type { TeamV1, TeamV2 } from "./Api.js"

/**
 * Strong ETag of what a team update can change, in the format of core's `ETag.compute`
 * (quoted base64url of 128 bits of SHA-256). Core's teams will own it once they have updates.
 */
export const teamEtag = (team: Team): string =>
  `"${createHash("sha256").update(JSON.stringify(teamValues(team)), "utf8").digest().subarray(0, 16).toString("base64url")}"`

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
