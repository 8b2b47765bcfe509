/** A role granted to a user, an SSO group or a team, at a scope. */
import { Schema } from "effect"
import { OrganizationId, RoleAssignmentId } from "../shared/Ids.js"
import { Role, ScopeType } from "./Domain.js"

export const SubjectType = Schema.Literal("user", "sso_group", "team")
export type SubjectType = typeof SubjectType.Type

export class RoleAssignment extends Schema.Class<RoleAssignment>("RoleAssignment")({
  id: RoleAssignmentId,
  organization_id: OrganizationId,
  subject_type: SubjectType,
  subject_id: Schema.String,
  role: Role,
  scope_type: ScopeType,
  scope_id: Schema.NullOr(Schema.String),
  created_at: Schema.DateTimeUtc,
  updated_at: Schema.DateTimeUtc
}) {}
