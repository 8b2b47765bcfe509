/**
 * A user's roles, merged from where they come from. Pure, so the rules are table-tested:
 * - direct: granted to the user;
 * - default (`is_default`): every member belongs to the organization's all-users team and holds
 *   its `default_member_role` at organization scope;
 * - team-inherited (`granted_from_team_name`): the roles granted to each team the user belongs
 *   to, the all-users team included.
 */
import { DateTime, Order, Schema } from "effect"
import type { OrganizationId } from "../shared/Ids.js"
import type { Team } from "../teams/Domain.js"
import type { Role, ScopeType } from "./Domain.js"
import { type RoleAssignment, ScopedRole, scopeRefOf } from "./RoleAssignment.js"
import type { ScopeRef } from "./Scope.js"

/**
 * @since 0.1.0
 * @category models
 */
export interface RoleSources {
  readonly direct: ReadonlyArray<RoleAssignment>
  /** The organization's all-users team, if it has one. */
  readonly allUsersTeam: Team | undefined
  /** The grants of every team the user belongs to. */
  readonly inherited: ReadonlyArray<{ readonly team: Team; readonly grant: RoleAssignment }>
}

/**
 * One entry of a user's role list, before its scope is named.
 * @since 0.1.0
 * @category models
 */
export interface EffectiveRole {
  /** The grant's id; a default role carries the id of the all-users team it comes from. */
  readonly id: string
  readonly role: Role
  readonly scope: ScopeRef
  readonly is_default: boolean
  readonly granted_from_team_name: string | null
  readonly created_at: DateTime.Utc
  readonly updated_at: DateTime.Utc
}

/**
 * @since 0.1.0
 * @category models
 */
export class UserRole extends ScopedRole.extend<UserRole>("UserRole")({
  is_default: Schema.Boolean,
  granted_from_team_name: Schema.NullOr(Schema.String)
}) {}

/**
 * Lists are ordered by (created_at, id): the order a keyset page resumes in.
 * @since 0.1.0
 * @category utils
 */
export const byCreation: Order.Order<{ readonly created_at: DateTime.Utc; readonly id: string }> = Order.combine(
  Order.mapInput(DateTime.Order, (role) => role.created_at),
  Order.mapInput(Order.string, (role) => role.id)
)

/**
 * A grant made to the user themselves.
 * @since 0.1.0
 * @category utils
 */
export const directRole = (grant: RoleAssignment): EffectiveRole => ({
  id: grant.id,
  role: grant.role,
  scope: scopeRefOf(grant),
  is_default: false,
  granted_from_team_name: null,
  created_at: grant.created_at,
  updated_at: grant.updated_at
})

/**
 * @since 0.1.0
 * @category utils
 */
export const isDirect = (role: EffectiveRole) => !role.is_default && role.granted_from_team_name === null

/**
 * @since 0.1.0
 * @category utils
 */
export const merge = (organizationId: OrganizationId, sources: RoleSources): ReadonlyArray<EffectiveRole> => {
  const direct = sources.direct.map(directRole)
  const team = sources.allUsersTeam
  const defaults = team === undefined ? [] : [{
    id: team.id,
    role: team.default_member_role,
    scope: { type: "organization", id: organizationId },
    is_default: true,
    granted_from_team_name: null,
    created_at: team.created_at,
    updated_at: team.updated_at
  } satisfies EffectiveRole]
  const inherited = sources.inherited.map(({ grant, team }): EffectiveRole => ({
    id: grant.id,
    role: grant.role,
    scope: scopeRefOf(grant),
    is_default: false,
    granted_from_team_name: team.name,
    created_at: grant.created_at,
    updated_at: grant.updated_at
  }))
  return [...direct, ...defaults, ...inherited].sort(byCreation)
}

/**
 * The roles that decide organization-wide permissions: those held at organization scope. A role
 * at a narrower scope (one warehouse account, one usage group) never widens access to the rest.
 * @since 0.1.0
 * @category utils
 */
export const organizationWide = (roles: ReadonlyArray<EffectiveRole>): ReadonlyArray<Role> => [
  ...new Set(roles.filter((role) => role.scope.type === "organization").map((role) => role.role))
]

/**
 * @since 0.1.0
 * @category models
 */
export interface RoleFilters {
  /** Keep these roles only; empty or absent keeps all. */
  readonly roles?: ReadonlyArray<Role> | undefined
  readonly scopeTypes?: ReadonlyArray<ScopeType> | undefined
}

const admits = <A>(values: ReadonlyArray<A> | undefined, value: A) =>
  values === undefined || values.length === 0 || values.includes(value)

/**
 * @since 0.1.0
 * @category utils
 */
export const filter = (roles: ReadonlyArray<EffectiveRole>, filters: RoleFilters): ReadonlyArray<EffectiveRole> =>
  roles.filter((role) => admits(filters.roles, role.role) && admits(filters.scopeTypes, role.scope.type))
