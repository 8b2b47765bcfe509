/**
 * The grant rule: a grant can never give more than the granter holds. Pure, so it is table-tested
 * and property-tested.
 *
 * A grant of a role at a scope confers every permission of the role (`Permissions.ofRole`) at
 * that scope. The granter may make it only if it holds each of those permissions at that scope or
 * wider. `admin` confers every permission there is, so only a principal that holds all of them
 * (an admin user, or an `admin` key with every area writable) may grant it.
 *
 * "At that scope or wider": the organization scope covers every scope of the tenant; any other
 * scope covers only itself (costline keeps no containment between warehouse organizations,
 * accounts and usage groups, so it assumes none).
 */
import type { Principal, Role } from "./Domain.js"
import type { RoleAssignment } from "./RoleAssignment.js"
import { scopeRefOf } from "./RoleAssignment.js"
import * as Permissions from "./Permissions.js"
import type { ScopeRef } from "./Scope.js"

/**
 * Permissions held at a scope.
 * @since 0.1.0
 * @category models
 */
export interface Holding {
  readonly scope: ScopeRef
  readonly permissions: ReadonlyArray<Permissions.Permission>
}

/**
 * A role at a scope: what a grant confers, and what a role held is.
 * @since 0.1.0
 * @category models
 */
export interface ScopedGrant {
  readonly role: Role
  readonly scope: ScopeRef
}

/**
 * @since 0.1.0
 * @category constants
 */
export const ORGANIZATION = "organization"

/**
 * Whether what is held at `held` applies at `target`.
 * @since 0.1.0
 * @category utils
 */
export const reaches = (held: ScopeRef, target: ScopeRef): boolean =>
  held.type === ORGANIZATION || (held.type === target.type && held.id === target.id)

/**
 * Roles held, as holdings.
 * @since 0.1.0
 * @category utils
 */
export const holdingsOfRoles = (roles: ReadonlyArray<ScopedGrant>): ReadonlyArray<Holding> =>
  roles.map((held) => ({ scope: held.scope, permissions: Permissions.ofRole(held.role) }))

/**
 * An API key holds what its access and scopes allow, across its organization.
 * @since 0.1.0
 * @category utils
 */
export const holdingsOfKey = (key: Extract<Principal, { _tag: "ApiKey" }>): ReadonlyArray<Holding> => [
  { scope: { type: ORGANIZATION, id: key.organizationId }, permissions: Permissions.heldBy(key) }
]

/**
 * @since 0.1.0
 * @category utils
 */
export const covers = (holdings: ReadonlyArray<Holding>, permission: Permissions.Permission, scope: ScopeRef): boolean =>
  holdings.some((holding) => reaches(holding.scope, scope) && holding.permissions.some((held) => Permissions.same(held, permission)))

/**
 * The permissions the grant confers that the holdings lack at its scope: none when it may be made.
 * @since 0.1.0
 * @category utils
 */
export const lacking = (holdings: ReadonlyArray<Holding>, grant: ScopedGrant): ReadonlyArray<Permissions.Permission> =>
  Permissions.ofRole(grant.role).filter((permission) => !covers(holdings, permission, grant.scope))

/**
 * The first grant the holdings may not make, with what they lack; undefined when all may be made.
 * @since 0.1.0
 * @category utils
 */
export const firstRefused = (
  holdings: ReadonlyArray<Holding>,
  grants: ReadonlyArray<ScopedGrant>
): { readonly grant: ScopedGrant; readonly lacking: ReadonlyArray<Permissions.Permission> } | undefined => {
  for (const grant of grants) {
    const missing = lacking(holdings, grant)
    if (missing.length > 0) return { grant, lacking: missing }
  }
  return undefined
}

/**
 * What stored grants confer.
 * @since 0.1.0
 * @category utils
 */
export const conferredBy = (assignments: ReadonlyArray<RoleAssignment>): ReadonlyArray<ScopedGrant> =>
  assignments.map((assignment) => ({ role: assignment.role, scope: scopeRefOf(assignment) }))

/**
 * @since 0.1.0
 * @category utils
 */
export const refusalMessage = (refused: { readonly grant: ScopedGrant; readonly lacking: ReadonlyArray<Permissions.Permission> }) =>
  `not allowed to grant ${refused.grant.role} at ${refused.grant.scope.type} scope: ` +
  `the caller does not hold ${refused.lacking.map(Permissions.describe).join(", ")} there`
