/**
 * An API key created through the API is a grant like any other: it may carry no more than its
 * creator holds. A user creating keys must be an admin (who holds everything); a key creating
 * keys may give at most its own access level and only scopes its own scopes cover.
 */
import type { Access, ApiKeyScope, Principal } from "../Domain.js"

const RANK: Record<Access, number> = { read_only: 0, read_write: 1, admin: 2 }

/** Whether the grantor's scopes cover `scope`: `*` covers all, `<area>:write` covers `<area>:read`. */
const covers = (held: ReadonlyArray<ApiKeyScope>, scope: ApiKeyScope): boolean => {
  if (held.includes("*")) return true
  if (scope === "*") return false
  if (held.includes(scope)) return true
  const [area, action] = scope.split(":")
  return action === "read" && held.includes(`${area}:write` as ApiKeyScope)
}

/** Why the grantor may not create such a key, or undefined when it may. */
export const excess = (
  grantor: Principal,
  key: { readonly access: Access; readonly scopes: ReadonlyArray<ApiKeyScope> }
): string | undefined => {
  if (grantor._tag === "User") {
    return grantor.roles.includes("admin") ? undefined : "only an organization admin can create API keys"
  }
  if (RANK[key.access] > RANK[grantor.access]) {
    return `a key with access '${grantor.access}' cannot create a key with access '${key.access}'`
  }
  const uncovered = key.scopes.filter((scope) => !covers(grantor.scopes, scope))
  return uncovered.length === 0
    ? undefined
    : `a key cannot grant scopes it does not hold: ${uncovered.join(", ")}`
}
