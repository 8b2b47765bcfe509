/** Teams: named groups of members holding roles. */
import { Schema } from "effect"
import { OrganizationId, TeamId } from "../shared/Ids.js"

export const MemberRole = Schema.Literal("admin", "editor", "viewer")
export type MemberRole = typeof MemberRole.Type

export const TeamName = Schema.String.pipe(
  Schema.filter((s) => s.trim().length > 0, { message: () => "must not be empty" }),
  Schema.maxLength(200)
)

export class Team extends Schema.Class<Team>("Team")({
  id: TeamId,
  organization_id: OrganizationId,
  name: Schema.String,
  is_all_users: Schema.Boolean,
  default_member_role: MemberRole,
  created_at: Schema.DateTimeUtc,
  updated_at: Schema.DateTimeUtc
}) {}

export class CreateTeam extends Schema.Class<CreateTeam>("CreateTeam")({
  name: TeamName,
  is_all_users: Schema.optionalWith(Schema.Boolean, { default: () => false }),
  default_member_role: Schema.optionalWith(MemberRole, { default: () => "viewer" as const })
}) {}
