/**
 * Reads what a team holds: its members and its role grants, as v2 keyset pages or v1 offset
 * pages. The all-users team lists every member of the organization, with its default role.
 */
import { Effect } from "effect"
import type { User } from "../identity/Domain.js"
import { RoleAssignmentsRepo, UsersRepo } from "../identity/Repo.js"
import { makeGrants } from "../identity/internal/Grants.js"
import type { ScopedRole } from "../identity/RoleAssignment.js"
import {
  keysetOf,
  type KeysetRequest,
  ListCursors,
  offsetPage,
  type OffsetRequest,
  type RequestFields,
  type Window
} from "../shared/Listing.js"
import { type Team, TeamMember } from "./Domain.js"
import { TeamMembersRepo } from "./Repo.js"

/**
 * An implicit member of the all-users team: every user, holding the team's default role.
 * @since 0.1.0
 * @category utils
 */
export const implicitMember = (team: Team, user: User): TeamMember =>
  new TeamMember({
    id: user.id,
    team_id: team.id,
    type: "user",
    subject_id: user.id,
    identifier: user.email,
    role: team.default_member_role,
    added_at: user.created_at
  })

const memberKey = (member: TeamMember) => keysetOf(member.added_at, member.id)
const roleKey = (role: ScopedRole) => keysetOf(role.created_at, role.id)

/**
 * @since 0.1.0
 * @category constructors
 */
export const makeTeamContentReader = Effect.gen(function*() {
  const members = yield* TeamMembersRepo
  const users = yield* UsersRepo
  const assignments = yield* RoleAssignmentsRepo
  const grants = yield* makeGrants
  const cursors = yield* ListCursors

  const memberRows = (team: Team) => (window: Window) =>
    team.is_all_users
      ? Effect.map(users.list(team.organization_id, window), (rows) => rows.map((user) => implicitMember(team, user)))
      : members.list(team.organization_id, team.id, window)

  const countMembers = (team: Team) =>
    team.is_all_users ? users.count(team.organization_id) : members.count(team.organization_id, team.id)

  const roleRows = (team: Team) => (window: Window) =>
    assignments.listWindow(team.organization_id, "team", team.id, window).pipe(
      Effect.flatMap((rows) => grants.named(team.organization_id, rows))
    )

  const countRoles = (team: Team) => assignments.countForSubject(team.organization_id, "team", team.id)

  return {
    countMembers,
    countRoles,
    memberPage: (team: Team, request: KeysetRequest, fields: RequestFields) =>
      cursors.keysetPage(team.organization_id, `team_members:${team.id}`, request, fields, memberRows(team), memberKey),
    rolePage: (team: Team, request: KeysetRequest, fields: RequestFields) =>
      cursors.keysetPage(team.organization_id, `team_roles:${team.id}`, request, fields, roleRows(team), roleKey),
    memberOffsetPage: (team: Team, request: OffsetRequest, fields: RequestFields) =>
      offsetPage(request, fields, memberRows(team), countMembers(team)),
    roleOffsetPage: (team: Team, request: OffsetRequest, fields: RequestFields) =>
      offsetPage(request, fields, roleRows(team), countRoles(team))
  }
})
