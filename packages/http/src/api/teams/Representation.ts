/** Core's teams, members and team roles in the v1 and v2 shapes. */
import type { Listing, RoleAssignment, Team, Teams } from "@costline/core"
import { toEmbeddedPage } from "../Pages.js"
import { toRoleAssignmentV2 } from "../roles/Schemas.js"
import type { TeamDetailsV1, TeamDetailsV2, TeamMemberSchema, TeamRoleV1, TeamRoleV2, TeamV1, TeamV2 } from "./Api.js"

export const toTeamV1 = (team: Team.Team): typeof TeamV1.Type => ({
  id: team.id,
  name: team.name,
  is_all_users: team.is_all_users,
  default_member_role: team.default_member_role,
  created_at: team.created_at,
  updated_at: team.updated_at
})

export const toTeamV2 = (team: Team.Team): typeof TeamV2.Type => ({
  ...toTeamV1(team),
  etag: team.etag,
  create_time: team.created_at,
  update_time: team.updated_at
})

export const toTeamMember = (member: Team.TeamMember): typeof TeamMemberSchema.Type => ({
  id: member.id,
  type: member.type,
  identifier: member.identifier,
  role: member.role,
  added_at: member.added_at
})

/** v1 knows three kinds of team scope, each in a field of its own. */
const scopeIdOf = (role: RoleAssignment.ScopedRole, type: RoleAssignment.ScopedRole["scope"]["type"]) => (role.scope.type === type ? role.scope.id : null)

export const toTeamRoleV1 = (role: RoleAssignment.ScopedRole): typeof TeamRoleV1.Type => ({
  id: role.id,
  role: role.role,
  created_at: role.created_at,
  dw_organization_name: scopeIdOf(role, "dw_organization"),
  dw_account_uuid: scopeIdOf(role, "dw_account"),
  usage_group_id: scopeIdOf(role, "usage_group")
})

export const toTeamRoleV2 = (role: RoleAssignment.ScopedRole): typeof TeamRoleV2.Type => ({
  ...toTeamRoleV1(role),
  scope: toRoleAssignmentV2(role).scope,
  create_time: role.created_at
})

export const toTeamDetailsV2 = (
  details: Teams.TeamDetails<Listing.Page<Team.TeamMember>, Listing.Page<RoleAssignment.ScopedRole>>
): typeof TeamDetailsV2.Type => ({
  ...toTeamV2(details.team),
  member_count: details.member_count,
  role_count: details.role_count,
  members: toEmbeddedPage(details.members, toTeamMember),
  roles: toEmbeddedPage(details.roles, toTeamRoleV2)
})

export const toTeamDetailsV1 = (
  details: Teams.TeamDetails<ReadonlyArray<Team.TeamMember>, ReadonlyArray<RoleAssignment.ScopedRole>>
): typeof TeamDetailsV1.Type => ({
  ...toTeamV1(details.team),
  member_count: details.member_count,
  role_count: details.role_count,
  members: details.members.map(toTeamMember),
  roles: details.roles.map(toTeamRoleV1)
})
