/**
 * The one access policy: which principal may do what. Pure, so it is table-tested.
 *
 * API keys: reads need `<area>:read` or `<area>:write` (or `*`); writes need `<area>:write` and
 * access other than `read_only`; audit export needs access `admin`.
 * Users: `admin` may do everything; `editor` writes insights, ticket links and usage groups;
 * `team_creator` may create teams; `monitor_editor` and `viewer` read.
 */
import { Area, type Principal, type Role } from "./Domain.js"

/**
 * @since 0.1.0
 * @category models
 */
export type Permission =
  | { readonly area: Area; readonly action: "read" | "write" }
  /** Creating a team, which `team_creator` may do without other team rights. */
  | { readonly area: "teams"; readonly action: "create" }
  | { readonly area: "audit_logs"; readonly action: "export" }
  /** Listing, creating and revoking the organization's API keys: admins only. */
  | { readonly area: "api_keys"; readonly action: "manage" }
  /** Ending the caller's own session (logout): any user; keys have no session. */
  | { readonly area: "sessions"; readonly action: "end" }
  /** Accepting an invitation: no credential at all, the invitation's token is one (a public route). */
  | { readonly area: "invitations"; readonly action: "accept" }

/**
 * @since 0.1.0
 * @category utils
 */
export const read = (area: Area): Permission => ({ area, action: "read" })
/**
 * @since 0.1.0
 * @category utils
 */
export const write = (area: Area): Permission => ({ area, action: "write" })
/**
 * @since 0.1.0
 * @category utils
 */
export const createTeam: Permission = { area: "teams", action: "create" }
/**
 * @since 0.1.0
 * @category utils
 */
export const exportAudit: Permission = { area: "audit_logs", action: "export" }
/**
 * @since 0.1.0
 * @category utils
 */
export const manageApiKeys: Permission = { area: "api_keys", action: "manage" }
/**
 * @since 0.1.0
 * @category utils
 */
export const endOwnSession: Permission = { area: "sessions", action: "end" }
/**
 * @since 0.1.0
 * @category utils
 */
export const acceptInvitation: Permission = { area: "invitations", action: "accept" }

/**
 * Every permission there is: what an `admin` holds.
 * @since 0.1.0
 * @category constants
 */
export const ALL: ReadonlyArray<Permission> = [
  ...Area.literals.flatMap((area) => [read(area), write(area)]),
  createTeam,
  exportAudit
]

/**
 * @since 0.1.0
 * @category utils
 */
export const same = (a: Permission, b: Permission) => a.area === b.area && a.action === b.action

/**
 * `teams:write`: how messages and tests name a permission.
 * @since 0.1.0
 * @category utils
 */
export const describe = (permission: Permission) => `${permission.area}:${permission.action}`

const EDITOR_WRITES: ReadonlySet<Area> = new Set(["insights", "ticket_links", "usage_groups"])

const roleAllows = (role: Role, permission: Permission): boolean => {
  if (permission.action === "end" || permission.action === "accept") return true
  switch (role) {
    case "admin":
      return true
    case "editor":
      return permission.action === "read" || (permission.action === "write" && EDITOR_WRITES.has(permission.area))
    case "team_creator":
      return permission.action === "read" || permission.action === "create"
    case "monitor_editor":
    case "viewer":
      return permission.action === "read"
  }
}

/**
 * What holding a role confers.
 * @since 0.1.0
 * @category utils
 */
export const ofRole = (role: Role): ReadonlyArray<Permission> => ALL.filter((permission) => roleAllows(role, permission))

/**
 * @since 0.1.0
 * @category utils
 */
export const isAllowed = (principal: Principal, permission: Permission): boolean => {
  if (principal._tag === "User") return principal.roles.some((role) => roleAllows(role, permission))
  const has = (scope: string) => principal.scopes.includes("*" as never) || principal.scopes.includes(scope as never)
  const canWriteArea = has(`${permission.area}:write`)
  const canReadArea = canWriteArea || has(`${permission.area}:read`)
  switch (permission.action) {
    case "read":
      return canReadArea
    case "write":
    case "create":
      return canWriteArea && principal.access !== "read_only"
    case "export":
      return canReadArea && principal.access === "admin"
    // What a key may then create is bounded by its own access and scopes (ApiKeyBounds).
    case "manage":
      return principal.access === "admin"
    case "end":
      return false
    case "accept":
      return true
  }
}

/**
 * Everything the principal may do.
 * @since 0.1.0
 * @category utils
 */
export const heldBy = (principal: Principal): ReadonlyArray<Permission> =>
  ALL.filter((permission) => isAllowed(principal, permission))

/**
 * How the audit log names a principal.
 * @since 0.1.0
 * @category utils
 */
export const changedBy = (principal: Principal): { changedBy: string; changedByType: "user" | "api_key" } =>
  principal._tag === "User"
    ? { changedBy: principal.email, changedByType: "user" }
    : { changedBy: `api_key:${principal.name}`, changedByType: "api_key" }
