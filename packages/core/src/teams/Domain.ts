/** Teams: named groups of members holding roles. */
import { Schema, Struct } from "effect"
import * as Audited from "../audit/internal/Audited.js"
import type { RoleAssignment } from "../identity/RoleAssignment.js"
import { OrganizationId, TeamId } from "../shared/Ids.js"

/**
 * @since 0.1.0
 * @category schemas
 */
export const MemberRole = Schema.Literal("admin", "editor", "viewer")
/**
 * @since 0.1.0
 * @category models
 */
export type MemberRole = typeof MemberRole.Type

/**
 * @since 0.1.0
 * @category schemas
 */
export const TeamName = Schema.String.pipe(
  Schema.filter((s) => s.trim().length > 0, { message: () => "must not be empty" }),
  Schema.maxLength(200)
)

/**
 * @since 0.1.0
 * @category models
 */
export class Team extends Schema.Class<Team>("Team")({
  id: TeamId,
  organization_id: OrganizationId,
  name: Schema.String,
  is_all_users: Schema.Boolean,
  default_member_role: MemberRole,
  created_at: Schema.DateTimeUtc,
  updated_at: Schema.DateTimeUtc,
  /** Stored with the team; `teamEtag` of what an update can change. */
  etag: Schema.String
}) {}

/**
 * What the audit log keeps of a team, and what its ETag covers.
 * @since 0.1.0
 * @category utils
 */
export const teamValues = (team: Pick<Team, "name" | "is_all_users" | "default_member_role">) =>
  Struct.pick(team, "name", "is_all_users", "default_member_role")

/**
 * @since 0.1.0
 * @category utils
 */
export const TeamAudit = Audited.resource<Team>("teams", "teams", teamValues)

/**
 * A team's own role grant (`teams` / `team_roles`).
 * @since 0.1.0
 * @category utils
 */
export const TeamRoleAudit = Audited.resource<RoleAssignment>("teams", "team_roles", (grant) => ({
  team_id: grant.subject_id,
  role: grant.role,
  scope_type: grant.scope_type,
  scope_id: grant.scope_id
}))

/**
 * @since 0.1.0
 * @category models
 */
export class CreateTeam extends Schema.Class<CreateTeam>("CreateTeam")({
  name: TeamName,
  is_all_users: Schema.optionalWith(Schema.Boolean, { default: () => false }),
  default_member_role: Schema.optionalWith(MemberRole, { default: () => "viewer" as const })
}) {}

/**
 * A merge patch of a team: only the members given change; neither may be removed.
 * @since 0.1.0
 * @category schemas
 */
export const TeamPatch = Schema.Struct({
  name: Schema.optional(TeamName),
  default_member_role: Schema.optional(MemberRole)
}).annotations({ identifier: "TeamPatch", parseOptions: { onExcessProperty: "error" } })
/**
 * @since 0.1.0
 * @category models
 */
export type TeamPatch = typeof TeamPatch.Type

/**
 * @since 0.1.0
 * @category schemas
 */
export const TeamMemberId = Schema.UUID.pipe(Schema.brand("TeamMemberId"))
/**
 * @since 0.1.0
 * @category models
 */
export type TeamMemberId = typeof TeamMemberId.Type

/**
 * `@` in the identifier makes a user member, anything else an SSO group.
 * @since 0.1.0
 * @category schemas
 */
export const MemberType = Schema.Literal("user", "sso_group")
/**
 * @since 0.1.0
 * @category models
 */
export type MemberType = typeof MemberType.Type

/**
 * @since 0.1.0
 * @category utils
 */
export const memberTypeOf = (identifier: string): MemberType => (identifier.includes("@") ? "user" : "sso_group")

/**
 * @since 0.1.0
 * @category models
 */
export class TeamMember extends Schema.Class<TeamMember>("TeamMember")({
  /** The membership's id; for the implicit members of the all-users team, the user's id. */
  id: Schema.UUID,
  team_id: TeamId,
  type: MemberType,
  /** The user's id or the SSO group's id. */
  subject_id: Schema.String,
  /** The user's email or the SSO group's name, as they are now. */
  identifier: Schema.String,
  role: MemberRole,
  added_at: Schema.DateTimeUtc
}) {}

/**
 * @since 0.1.0
 * @category utils
 */
export const TeamMemberAudit = Audited.resource<Pick<TeamMember, "id" | "team_id" | "type" | "identifier" | "role">>(
  "teams",
  "team_members",
  (member) => ({ team_id: member.team_id, type: member.type, identifier: member.identifier, role: member.role })
)

/**
 * @since 0.1.0
 * @category models
 */
export class AddTeamMember extends Schema.Class<AddTeamMember>("AddTeamMember")({
  identifier: Schema.String.pipe(
    Schema.filter((s) => s.trim().length > 0, { message: () => "must not be empty" }),
    Schema.maxLength(320)
  ),
  /** Defaults to the team's `default_member_role`. */
  role: Schema.optional(MemberRole)
}) {}
