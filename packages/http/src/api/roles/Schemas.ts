/**
 * Roles as the API shows them, shared by SSO groups, users and teams: a role assignment
 * `{id, role, scope: {type, id, name}, created_at, updated_at}` (v2 adds `create_time` and
 * `update_time`), and a user's role, which adds where it comes from.
 */
import { Identity } from "@costline/core"
import type { EffectiveRoles, RoleAssignment } from "@costline/core"
import { Schema } from "effect"

export const ScopeSchema = Schema.Struct({
  type: Identity.ScopeType,
  id: Schema.String,
  /** The current name of what the scope points at; null when it no longer exists. */
  name: Schema.NullOr(Schema.String)
}).annotations({ identifier: "Scope" })

export const RoleAssignmentV1 = Schema.Struct({
  id: Schema.String,
  role: Identity.Role,
  scope: ScopeSchema,
  created_at: Schema.DateTimeUtc,
  updated_at: Schema.DateTimeUtc
}).annotations({ identifier: "RoleAssignmentV1" })

export const RoleAssignmentV2 = Schema.Struct({
  ...RoleAssignmentV1.fields,
  create_time: Schema.DateTimeUtc,
  update_time: Schema.DateTimeUtc
}).annotations({ identifier: "RoleAssignment" })

const provenance = {
  /** The all-users team's default role, held by every member. */
  is_default: Schema.Boolean,
  /** The team the role is inherited from; null for direct and default roles. */
  granted_from_team_name: Schema.NullOr(Schema.String)
}

export const UserRoleV1 = Schema.Struct({ ...RoleAssignmentV1.fields, ...provenance }).annotations({ identifier: "UserRoleV1" })
export const UserRoleV2 = Schema.Struct({ ...RoleAssignmentV2.fields, ...provenance }).annotations({ identifier: "UserRole" })

export const toRoleAssignmentV1 = (role: RoleAssignment.ScopedRole): typeof RoleAssignmentV1.Type => ({
  id: role.id,
  role: role.role,
  scope: { type: role.scope.type, id: role.scope.id, name: role.scope.name },
  created_at: role.created_at,
  updated_at: role.updated_at
})

export const toRoleAssignmentV2 = (role: RoleAssignment.ScopedRole): typeof RoleAssignmentV2.Type => ({
  ...toRoleAssignmentV1(role),
  create_time: role.created_at,
  update_time: role.updated_at
})

const provenanceOf = (role: EffectiveRoles.UserRole) => ({ is_default: role.is_default, granted_from_team_name: role.granted_from_team_name })

export const toUserRoleV1 = (role: EffectiveRoles.UserRole): typeof UserRoleV1.Type => ({ ...toRoleAssignmentV1(role), ...provenanceOf(role) })

export const toUserRoleV2 = (role: EffectiveRoles.UserRole): typeof UserRoleV2.Type => ({ ...toRoleAssignmentV2(role), ...provenanceOf(role) })
