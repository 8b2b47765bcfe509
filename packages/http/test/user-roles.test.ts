/** A member's roles through the real server: the merged list, direct grants and deletions, v2 and v1. */
import { layer } from "@effect/vitest"
import { Effect } from "effect"
import { randomUUID } from "node:crypto"
import { expect } from "vitest"
import { call, makeTestServer, seedTenant } from "./support/TestServer.js"

type Tenant = Effect.Effect.Success<typeof seedTenant>

const v2 = (tenant: Tenant) => (method: string, path: string, json?: unknown) =>
  call(method, `/v2${path}`, { token: tenant.adminKey, tenant: tenant.id, ...(json === undefined ? {} : { json }) })

const v1 = (tenant: Tenant) => (method: string, path: string) => call(method, `/api/${tenant.id}${path}`, { token: tenant.adminKey })

/**
 * An editor who holds a role from every source: their direct editor role, the all-users team's
 * default (viewer), a grant of the all-users team (bi_site) and a grant of a team they are in.
 */
const memberWithEverySource = Effect.gen(function*() {
  const tenant = yield* seedTenant
  const member = yield* tenant.userSession("editor")
  const everyone = (yield* v2(tenant)("POST", "/teams", { name: "Everyone", is_all_users: true, default_member_role: "viewer" })).body
  yield* v2(tenant)("POST", `/teams/${everyone.id}/roles`, { role: "viewer", scope: { type: "bi_site", id: "tableau" } })
  const team = (yield* v2(tenant)("POST", "/teams", { name: "Data" })).body
  yield* v2(tenant)("POST", `/teams/${team.id}/members`, { identifier: member.email })
  const inherited = (yield* v2(tenant)("POST", `/teams/${team.id}/roles`, { role: "admin", scope: { type: "organization" } })).body
  return { tenant, member, everyone, inherited, rolesPath: `/users/${encodeURIComponent(member.email)}/roles` }
})

const describeRole = (role: { role: string; scope: { type: string }; is_default: boolean; granted_from_team_name: string | null }) =>
  `${role.role}@${role.scope.type}${role.is_default ? " (default)" : ""}${role.granted_from_team_name ? ` from ${role.granted_from_team_name}` : ""}`

layer(makeTestServer(), { excludeTestServices: true })("user roles v2", (it) => {
  it.effect("GET lists direct, default and team-inherited roles, each saying where it comes from", () =>
    Effect.gen(function*() {
      const { rolesPath, tenant } = yield* memberWithEverySource
      const reply = yield* v2(tenant)("GET", rolesPath)
      expect(reply.status).toBe(200)
      expect(reply.body.items.map(describeRole).sort()).toEqual([
        "admin@organization from Data",
        "editor@organization",
        "viewer@bi_site from Everyone",
        "viewer@organization (default)"
      ])
      expect(reply.body).toMatchObject({ row_count: 4, page_token: null })
      expect(Object.keys(reply.body.items[0]).sort()).toEqual(
        ["create_time", "created_at", "granted_from_team_name", "id", "is_default", "role", "scope", "update_time", "updated_at"]
      )
    }))

  it.effect("GET filters by role__in and scope_type__in and pages with a token; bad values are 422s", () =>
    Effect.gen(function*() {
      const { rolesPath, tenant } = yield* memberWithEverySource
      const list = (query: string) => v2(tenant)("GET", `${rolesPath}?${query}`)
      expect((yield* list("role__in=viewer")).body.items.map(describeRole).sort()).toEqual([
        "viewer@bi_site from Everyone",
        "viewer@organization (default)"
      ])
      expect((yield* list("role__in=admin,editor&scope_type__in=organization")).body.row_count).toBe(2)
      expect((yield* list("scope_type__in=bi_site&scope_type__in=usage_group")).body.row_count).toBe(1)

      const first = yield* list("max_results=3")
      const second = yield* list(`max_results=3&page_token=${first.body.page_token}`)
      expect([first.body.row_count, second.body.row_count, second.body.page_token]).toEqual([3, 1, null])
      for (const [query, field] of [["role__in=owner", "query.role__in"], ["scope_type__in=galaxy", "query.scope_type__in"], ["max_results=501", "query.max_results"]]) {
        const reply = yield* list(query!)
        expect(reply.status, query).toBe(422)
        expect(reply.body.details[0].field).toBe(field)
      }
      expect((yield* v2(tenant)("GET", "/users/nobody@example.com/roles")).status).toBe(404)
    }))

  it.effect("POST grants a direct role (201); a duplicate is 409, an unknown scope 422; the caller's new role counts at once", () =>
    Effect.gen(function*() {
      const tenant = yield* seedTenant
      const viewer = yield* tenant.userSession("viewer")
      const path = `/users/${encodeURIComponent(viewer.email)}/roles`
      const createTeam = () => call("POST", "/v2/teams", { token: viewer.token, tenant: tenant.id, json: { name: "Mine" } })
      expect((yield* createTeam()).status).toBe(403)

      const granted = yield* v2(tenant)("POST", path, { role: "team_creator", scope: { type: "organization" } })
      expect(granted.status).toBe(201)
      expect(granted.headers.get("location")).toBe(`/v2${path}`)
      expect(granted.body).toMatchObject({ role: "team_creator", is_default: false, granted_from_team_name: null })
      expect((yield* createTeam()).status).toBe(201)

      expect((yield* v2(tenant)("POST", path, { role: "team_creator", scope: { type: "organization" } })).status).toBe(409)
      const unknownScope = yield* v2(tenant)("POST", path, { role: "viewer", scope: { type: "dw_account", id: randomUUID() } })
      expect(unknownScope.status).toBe(422)
      expect(unknownScope.body.details[0].field).toBe("body.scope.id")
      expect((yield* v2(tenant)("POST", "/users/ghost@example.com/roles", { role: "viewer", scope: { type: "organization" } })).status).toBe(404)
      const audit = yield* v2(tenant)("GET", "/audit-logs?resource__in=user_roles&operation__in=create")
      expect(audit.body.items.at(-1)).toMatchObject({ table_name: "role_assignments", record_id: granted.body.id, status: "success" })
    }))

  it.effect("a scope read from the API can be sent back whole: its name is accepted and ignored", () =>
    Effect.gen(function*() {
      const tenant = yield* seedTenant
      const viewer = yield* tenant.userSession("viewer")
      const path = `/users/${encodeURIComponent(viewer.email)}/roles`
      const held = (yield* v2(tenant)("GET", path)).body.items[0]
      expect(held.scope).toMatchObject({ type: "organization", id: tenant.id })
      const granted = yield* v2(tenant)("POST", path, { role: "team_creator", scope: { ...held.scope, name: "Not its name" } })
      expect(granted.status).toBe(201)
      expect(granted.body.scope).toEqual(held.scope)
    }))

  it.effect("DELETE removes a direct role (204); a default or inherited one is 409, an unknown one 404", () =>
    Effect.gen(function*() {
      const { everyone, inherited, member, rolesPath, tenant } = yield* memberWithEverySource
      const roles = (yield* v2(tenant)("GET", rolesPath)).body.items
      const direct = roles.find((role: { role: string; granted_from_team_name: string | null }) => role.role === "editor")
      const remove = (id: string) => v2(tenant)("DELETE", `${rolesPath}/${id}`)

      const fromDefault = yield* remove(everyone.id)
      expect(fromDefault.status).toBe(409)
      expect(fromDefault.body.code).toBe("conflict")
      expect((yield* remove(inherited.id)).status).toBe(409)
      expect((yield* remove(randomUUID())).status).toBe(404)
      const removed = yield* remove(direct.id)
      expect(removed.status).toBe(204)
      expect((yield* remove(direct.id)).status).toBe(404)
      expect((yield* v2(tenant)("GET", rolesPath)).body.row_count).toBe(3)
      // The member's session sees what remains: still an admin, through their team.
      expect((yield* call("GET", "/v2/audit-logs", { token: member.token, tenant: tenant.id })).status).toBe(200)
    }))
})

layer(makeTestServer(), { excludeTestServices: true })("user roles v1", (it) => {
  it.effect("GET lists with limit, offset, role and scope_type, in the v1 shape", () =>
    Effect.gen(function*() {
      const { member, tenant } = yield* memberWithEverySource
      const list = (query: string) => v1(tenant)("GET", `/users/${member.email}/roles?${query}`)
      const all = yield* list("")
      expect(all.status).toBe(200)
      expect(all.body).toMatchObject({ limit: 100, offset: 0, remaining_count: 0 })
      expect(all.body.roles).toHaveLength(4)
      expect(Object.keys(all.body.roles[0]).sort()).toEqual(
        ["created_at", "granted_from_team_name", "id", "is_default", "role", "scope", "updated_at"]
      )
      const paged = yield* list("limit=1&offset=1&role=viewer&role=admin")
      expect(paged.body).toMatchObject({ limit: 1, offset: 1, remaining_count: 1 })
      expect((yield* list("scope_type=bi_site")).body.roles.map(describeRole)).toEqual(["viewer@bi_site from Everyone"])
      for (const query of ["limit=0", "limit=1001", "offset=-1", "role=owner"]) {
        const reply = yield* list(query)
        expect(reply.status, query).toBe(422)
        expect(reply.body.detail[0].loc[0]).toBe("query")
      }
    }))

  it.effect("DELETE by user_role_id answers {success: true}; an inherited role is a 409 detail", () =>
    Effect.gen(function*() {
      const { inherited, member, tenant } = yield* memberWithEverySource
      const roles = (yield* v1(tenant)("GET", `/users/${member.email}/roles?role=editor`)).body.roles
      const deleted = yield* v1(tenant)("DELETE", `/users/${member.email}/roles/${roles[0].id}`)
      expect(deleted.status).toBe(200)
      expect(deleted.body).toEqual({ success: true })
      expect(deleted.headers.get("link")).toBe(`</v2/users/${encodeURIComponent(member.email)}/roles/${roles[0].id}>; rel="successor-version"`)
      const refused = yield* v1(tenant)("DELETE", `/users/${member.email}/roles/${inherited.id}`)
      expect(refused.status).toBe(409)
      expect(refused.body).toEqual({ detail: "the role is inherited from team 'Data'; remove it from the team instead" })
    }))
})
