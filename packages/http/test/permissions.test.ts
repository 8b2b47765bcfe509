/**
 * The permission table: every route of the API × every kind of principal → allowed or 403,
 * through the real server. The routes come from the API definition, so a route without a row
 * here fails the first test.
 *
 * TO ADD A ROUTE: add its row to `REQUIRED` (`"<METHOD> <path as declared>": "<area>:<action>"`)
 * and annotate the endpoint with the same permission (`.annotate(Requires, Access.…)`).
 */
import { Permissions } from "@costline/core"
import type { Identity } from "@costline/core"
import { CostlineApi } from "@costline/http"
import { layer } from "@effect/vitest"
import { Effect, Option } from "effect"
import { randomUUID } from "node:crypto"
import { describe, expect, it as plainIt } from "vitest"
import { declaredRoutes } from "../src/middleware/AccessPolicy.js"
import { call, makeTestServer, seedTenant } from "./support/TestServer.js"

type Action = "read" | "write" | "create" | "export" | "manage" | "end" | "accept"
type Requirement = `${Identity.Area | "api_keys" | "sessions" | "invitations"}:${Action}`

/** What each route requires. */
const REQUIRED: Record<string, Requirement> = {
  "GET /v2/audit-logs": "audit_logs:export",

  "POST /v2/teams": "teams:create",
  "GET /v2/teams/:team_id": "teams:read",
  "PATCH /v2/teams/:team_id": "teams:write",
  "POST /v2/teams/:team_id/members": "teams:write",
  "POST /v2/teams/:team_id/roles": "teams:write",
  "DELETE /v2/teams/:team_id/roles/:role_id": "teams:write",
  "POST /api/:organization_id/teams": "teams:create",
  "PUT /api/:organization_id/teams/:team_id": "teams:write",
  "GET /api/:organization_id/teams/:team_id": "teams:read",
  "POST /api/:organization_id/teams/:team_id/members": "teams:write",
  "DELETE /api/:organization_id/teams/:team_id/roles/:role_id": "teams:write",

  "POST /v2/sso-groups": "sso_groups:write",
  "GET /v2/sso-groups": "sso_groups:read",
  "GET /v2/sso-groups/:sso_group_id": "sso_groups:read",
  "PATCH /v2/sso-groups/:sso_group_id": "sso_groups:write",
  "POST /api/:organization_id/sso-group-mappings": "sso_groups:write",
  "PUT /api/:organization_id/sso-group-mappings/:sso_group_name": "sso_groups:write",
  "GET /api/:organization_id/sso-group-mappings": "sso_groups:read",

  "GET /v2/users/:email/roles": "users:read",
  "POST /v2/users/:email/roles": "users:write",
  "DELETE /v2/users/:email/roles/:role_id": "users:write",
  "GET /api/:organization_id/users/:email/roles": "users:read",
  "DELETE /api/:organization_id/users/:email/roles/:user_role_id": "users:write",

  "POST /v2/insights/actions/analyze-query": "insights:read",
  "POST /v2/insights/actions/generate-code-change": "insights:write",
  "GET /v2/insights": "insights:read",
  "POST /v2/insights/actions/query": "insights:read",
  "GET /v2/insights/:insight_id": "insights:read",
  "PATCH /v2/insights/:insight_id": "insights:write",
  "POST /v2/insights/:insight_id/actions/viewed": "insights:read",

  "POST /v2/ticket-links": "ticket_links:write",
  "GET /v2/ticket-links": "ticket_links:read",
  "GET /v2/ticket-links/:ticket_link_id": "ticket_links:read",

  "GET /v2/dw-accounts/:dw_account_id": "dw_accounts:read",
  "PATCH /v2/dw-accounts/:dw_account_id": "dw_accounts:write",
  "PUT /api/dw-accounts/:dw_account_uuid/credentials": "dw_accounts:write",
  "POST /v2/dw-ingestions": "dw_accounts:write",

  "POST /v2/usage-group-sets": "usage_groups:write",
  "GET /v2/usage-group-sets/:usage_group_set_id": "usage_groups:read",
  "GET /v2/usage-group-sets/:usage_group_set_id/usage-groups": "usage_groups:read",
  "POST /v2/usage-group-sets/:usage_group_set_id/usage-groups": "usage_groups:write",
  "GET /v2/usage-group-sets/:usage_group_set_id/usage-groups/:usage_group_id": "usage_groups:read",
  "PATCH /v2/usage-group-sets/:usage_group_set_id/usage-groups/:usage_group_id": "usage_groups:write",
  "DELETE /v2/usage-group-sets/:usage_group_set_id/usage-groups/:usage_group_id": "usage_groups:write",
  "GET /v2/usage-group-sets/:usage_group_set_id/attribution": "usage_groups:read",
  "POST /v2/usage-group-sets/:usage_group_set_id/actions/raise-budget-alerts": "insights:write",
  "GET /v2/usage-dimensions": "usage_groups:read",
  "POST /api/:organization_id/usage-group-sets": "usage_groups:write",
  "GET /api/:organization_id/usage-group-sets/:usage_group_set_id": "usage_groups:read",
  "PUT /api/:organization_id/usage-group-sets/:usage_group_set_id/usage-groups/:usage_group_id": "usage_groups:write",
  "DELETE /api/:organization_id/usage-group-sets/:usage_group_set_id/usage-groups/:usage_group_id": "usage_groups:write",

  "GET /v2/api-keys": "api_keys:manage",
  "POST /v2/api-keys": "api_keys:manage",
  "DELETE /v2/api-keys/:api_key_id": "api_keys:manage",
  "DELETE /v2/sessions/current": "sessions:end",
  // No credential needed (the invitation's token is one): every principal, and nobody, passes.
  "POST /v2/invitations/accept": "invitations:accept"
}

const parse = (requirement: Requirement) => {
  const [area, action] = requirement.split(":") as [Identity.Area, Action]
  return { area, action }
}

/** Key scopes name areas; routes of areas no scope names (api_keys, sessions) get keys scoped to another. */
const SCOPED_AREAS: ReadonlyArray<string> = ["audit_logs", "insights", "ticket_links", "teams", "sso_groups", "users", "usage_groups", "dw_accounts"]
const scopeAreaOf = (area: Identity.Area): Identity.Area => (SCOPED_AREAS.includes(area) ? area : "audit_logs")

/** Whether a refusal of the route is audited: every change (managing keys: creating and revoking). */
const isChange = (method: string, action: Action) =>
  action === "write" || action === "create" || (action === "manage" && method !== "GET")

/** Editors may write these areas (API-DECISIONS: "editor writes insights, ticket links, usage groups"). */
const EDITOR_WRITES: ReadonlyArray<Identity.Area> = ["insights", "ticket_links", "usage_groups"]

/**
 * The principals, each with what the documented policy lets it do. Keys with narrow scopes are
 * made for the area of the route under test; `other area` is always a different one.
 */
const PRINCIPALS: ReadonlyArray<{
  readonly name: string
  readonly credential:
    | { readonly key: "admin" | "read_write" | "read_only"; readonly scopes: (area: Identity.Area) => ReadonlyArray<string> }
    | { readonly role: "admin" | "editor" | "team_creator" | "monitor_editor" | "viewer" }
  readonly allows: (area: Identity.Area, action: Action) => boolean
}> = [
  { name: "admin key *", credential: { key: "admin", scopes: () => ["*"] }, allows: (_, action) => action !== "end" },
  {
    name: "read_write key *",
    credential: { key: "read_write", scopes: () => ["*"] },
    allows: (_, action) => action === "read" || action === "write" || action === "create"
  },
  { name: "read_only key *", credential: { key: "read_only", scopes: () => ["*"] }, allows: (_, action) => action === "read" },
  {
    name: "read_write key <area>:read",
    credential: { key: "read_write", scopes: (area) => [`${area}:read`] },
    allows: (_, action) => action === "read"
  },
  {
    name: "read_write key <area>:write",
    credential: { key: "read_write", scopes: (area) => [`${area}:write`] },
    allows: (_, action) => action === "read" || action === "write" || action === "create"
  },
  {
    name: "read_only key <area>:write",
    credential: { key: "read_only", scopes: (area) => [`${area}:write`] },
    allows: (_, action) => action === "read"
  },
  {
    name: "admin key <area>:read",
    credential: { key: "admin", scopes: (area) => [`${area}:read`] },
    allows: (_, action) => action === "read" || action === "export" || action === "manage"
  },
  {
    name: "admin key <other area>:write",
    credential: { key: "admin", scopes: (area) => [area === "teams" ? "insights:write" : "teams:write"] },
    // Administering keys needs admin access, whatever the scopes (they bound the keys it creates).
    allows: (_, action) => action === "manage"
  },
  { name: "admin user", credential: { role: "admin" }, allows: () => true },
  {
    name: "editor user",
    credential: { role: "editor" },
    allows: (area, action) => action === "read" || action === "end" || (action === "write" && EDITOR_WRITES.includes(area))
  },
  {
    name: "team_creator user",
    credential: { role: "team_creator" },
    allows: (_, action) => action === "read" || action === "create" || action === "end"
  },
  { name: "monitor_editor user", credential: { role: "monitor_editor" }, allows: (_, action) => action === "read" || action === "end" },
  { name: "viewer user", credential: { role: "viewer" }, allows: (_, action) => action === "read" || action === "end" }
]

const routes = declaredRoutes(CostlineApi)
const routeKey = (route: { readonly method: string; readonly path: string }) => `${route.method} ${route.path}`

const requirementOf = (permission: Permissions.Permission): Requirement => `${permission.area}:${permission.action}`

describe("the permission table", () => {
  plainIt("has exactly one row per route of the API", () => {
    expect(Object.keys(REQUIRED).sort()).toEqual(routes.map(routeKey).sort())
  })

  plainIt("agrees with what every endpoint declares", () => {
    const declared = Object.fromEntries(routes.map((route) => [
      routeKey(route),
      Option.match(route.access, { onNone: () => "undeclared", onSome: (access) => requirementOf(access.permission) })
    ]))
    expect(declared).toEqual(REQUIRED)
  })

  plainIt("declares how every refused change is audited, and only changes", () => {
    const changing = routes.filter((route) => Option.exists(route.access, (access) => access.attempt !== undefined))
    const writes = routes.filter((route) => {
      const { action } = parse(REQUIRED[routeKey(route)]!)
      return isChange(route.method, action) && route.path !== "/v2/insights/actions/generate-code-change"
    })
    expect(changing.map(routeKey).sort()).toEqual(writes.map(routeKey).sort())
  })
})

/** A request to the route with every path parameter filled in; an empty JSON body where one is taken. */
const requestTo = (method: string, path: string, tenant: string, email: string) => {
  const url = path.replace(/:([A-Za-z0-9_]+)/g, (_, name: string) =>
    name === "organization_id" ? tenant : name === "email" ? encodeURIComponent(email) : randomUUID())
  return { method, url, json: method === "GET" || method === "DELETE" ? undefined : {} }
}

layer(makeTestServer(), { excludeTestServices: true })("route × principal", (it) => {
  for (const route of routes) {
    const key = routeKey(route)
    it.effect(`${key}: allowed principals pass the check, the others get 403; refused changes are audited`, () =>
      Effect.gen(function*() {
        const requirement = REQUIRED[key]
        if (requirement === undefined) return expect.fail(`no row for ${key} in REQUIRED`)
        const { action, area } = parse(requirement)
        const tenant = yield* seedTenant
        const member = yield* tenant.userSession("viewer")
        const version = route.path.startsWith("/api/") ? "v1" : "v2"
        const refusedChanges: Array<string> = []
        for (const principal of PRINCIPALS) {
          const { credential } = principal
          const token = "key" in credential
            ? yield* tenant.apiKey(credential.key, credential.scopes(scopeAreaOf(area)))
            : (yield* tenant.userSession(credential.role)).token
          const requestId = `perm-${randomUUID()}`
          const request = requestTo(route.method, route.path, tenant.id, member.email)
          const reply = yield* call(request.method, request.url, {
            token,
            tenant: tenant.id,
            headers: { "x-request-id": requestId },
            ...(request.json === undefined ? {} : { json: request.json })
          })
          // A public route: what the caller holds does not matter.
          const allowed = action === "accept" || principal.allows(area, action)
          const outcome = `${principal.name} → ${reply.status}`
          if (allowed) {
            expect([401, 403, 500], outcome).not.toContain(reply.status)
          } else {
            expect(reply.status, outcome).toBe(403)
            expect(version === "v2" ? reply.body.code : reply.body.detail, outcome).toBe(
              version === "v2" ? "forbidden" : `not allowed to ${action} ${area}`
            )
            if (isChange(route.method, action)) refusedChanges.push(requestId)
          }
        }
        const failures = yield* call("GET", "/v2/audit-logs?status__in=failure&max_results=500", {
          token: tenant.adminKey,
          tenant: tenant.id
        })
        const audited = failures.body.items.map((record: { request_id: string }) => record.request_id)
        // The one write that changes nothing (generating code) is refused without an audit record.
        const expected = route.path === "/v2/insights/actions/generate-code-change" ? [] : refusedChanges
        expect(audited.sort()).toEqual(expected.sort())
      }))
  }
})
