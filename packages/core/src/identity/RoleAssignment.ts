/** A role granted to a user, an SSO group or a team, at a scope; and how reads show one. */
import { Schema } from "effect"
import * as Audited from "../audit/internal/Audited.js"
import { OrganizationId, RoleAssignmentId } from "../shared/Ids.js"
import { Role, ScopeType } from "./Domain.js"
import { Scope, type ScopeRef } from "./Scope.js"

/**
 * @since 0.1.0
 * @category schemas
 */
export const SubjectType = Schema.Literal("user", "sso_group", "team")
/**
 * @since 0.1.0
 * @category models
 */
export type SubjectType = typeof SubjectType.Type

/**
 * @since 0.1.0
 * @category models
 */
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

/**
 * A role granted to a user or an SSO group (`user_roles` / `role_assignments`), named by the
 * holder's email or the SSO group's name. (A team's grants are the team's: `TeamRoleAudit`.)
 * @since 0.1.0
 * @category utils
 */
export const RoleGrantAudit = Audited.make<{
  readonly holder: { readonly email: string } | { readonly sso_group: string }
  readonly assignment: RoleAssignment
}>({
  target: { resource: "user_roles" },
  table_name: "role_assignments",
  id: ({ assignment }) => assignment.id,
  values: ({ assignment, holder }) => ({
    ...holder,
    role: assignment.role,
    scope_type: assignment.scope_type,
    scope_id: assignment.scope_id
  })
})

/**
 * The scope a grant applies to. An organization grant stored without an id is the tenant's.
 * @since 0.1.0
 * @category utils
 */
export const scopeRefOf = (assignment: RoleAssignment): ScopeRef => ({
  type: assignment.scope_type,
  id: assignment.scope_id ?? assignment.organization_id
})

/**
 * A grant as reads show it: its scope named.
 * @since 0.1.0
 * @category models
 */
export class ScopedRole extends Schema.Class<ScopedRole>("ScopedRole")({
  id: Schema.String,
  role: Role,
  scope: Scope,
  created_at: Schema.DateTimeUtc,
  updated_at: Schema.DateTimeUtc
}) {}

/**
 * @since 0.1.0
 * @category utils
 */
export const toScopedRole = (assignment: RoleAssignment, scope: Scope): ScopedRole =>
  new ScopedRole({
    id: assignment.id,
    role: assignment.role,
    scope,
    created_at: assignment.created_at,
    updated_at: assignment.updated_at
  })
