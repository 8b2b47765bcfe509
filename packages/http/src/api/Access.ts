/**
 * What each endpoint requires of its caller, declared next to the endpoint:
 *
 *     HttpApiEndpoint.get("getTeam")`/teams/${TeamIdParam}`.annotate(Requires, Access.read("teams"))
 *
 * The tenant middleware enforces it for every request, before the request is even decoded (see
 * `middleware/AccessPolicy.ts`), with core's one policy (`Permissions`). A route without a
 * declaration is never served, and the permission table test names it.
 */
import { Permissions } from "@costline/core"
import type { Audit, Identity } from "@costline/core"
import { Context } from "effect"

/** How a refused write is audited (`status: failure`): what it would have changed. */
export interface AttemptedChange {
  readonly target: Audit.AuditEntry["target"]
  readonly table_name: string
  readonly operation: Audit.AuditEntry["operation"]
  /** The path parameter naming the changed record, if the path names one. */
  readonly recordIdParam?: string
}

/** `change("teams", "team_roles", "delete", "role_id")`: a change of a resource's table. */
export const change = (
  resource: Extract<Audit.AuditEntry["target"], { readonly resource: unknown }>["resource"],
  table_name: string,
  operation: Audit.AuditEntry["operation"],
  recordIdParam?: string
): AttemptedChange => ({
  target: { resource },
  table_name,
  operation,
  ...(recordIdParam === undefined ? {} : { recordIdParam })
})

export interface RouteAccess {
  readonly permission: Permissions.Permission
  /** Set on every route that changes something: its refusal is audited. */
  readonly attempt?: AttemptedChange
}

export class Requires extends Context.Tag("@costline/http/Requires")<Requires, RouteAccess>() {}

export const Access = {
  /** Reading an area: `<area>:read` or `:write` scope; any user role. */
  read: (area: Identity.Area): RouteAccess => ({ permission: Permissions.read(area) }),
  /** Changing an area: `<area>:write` scope on a key that is not read-only; an admin (or editor where allowed). */
  write: (area: Identity.Area, attempt: AttemptedChange): RouteAccess => ({ permission: Permissions.write(area), attempt }),
  /** An action that needs write access but changes nothing stored (generating a code change): not audited. */
  action: (area: Identity.Area): RouteAccess => ({ permission: Permissions.write(area) }),
  /** Creating a team: what `write("teams")` allows, and the `team_creator` role. */
  createTeam: (attempt: AttemptedChange): RouteAccess => ({ permission: Permissions.createTeam, attempt }),
  /** Exporting the audit log: an admin key or an admin user. */
  exportAudit: { permission: Permissions.exportAudit } satisfies RouteAccess,
  /** Administering the organization's API keys: admins; `attempt` on the routes that change one. */
  manageApiKeys: (attempt?: AttemptedChange): RouteAccess =>
    attempt === undefined ? { permission: Permissions.manageApiKeys } : { permission: Permissions.manageApiKeys, attempt },
  /** Logging out: any user session, for itself. */
  endOwnSession: { permission: Permissions.endOwnSession } satisfies RouteAccess,
  /** Accepting an invitation: anyone, without a credential (the route's middleware authenticates nobody). */
  acceptInvitation: { permission: Permissions.acceptInvitation } satisfies RouteAccess
} as const
