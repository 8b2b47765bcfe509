/** SSO group mappings through the real server: v2 keyed by id, v1 keyed by name. */
import { layer } from "@effect/vitest"
import { Effect } from "effect"
import { randomUUID } from "node:crypto"
import { expect } from "vitest"
import { call, makeTestServer, seedTenant } from "./support/TestServer.js"

type Tenant = Effect.Effect.Success<typeof seedTenant>

const v2 = (tenant: Tenant) => (method: string, path: string, json?: unknown, headers: Record<string, string> = {}) =>
  call(method, `/v2${path}`, { token: tenant.adminKey, tenant: tenant.id, headers, ...(json === undefined ? {} : { json }) })

const v1 = (tenant: Tenant) => (method: string, path: string, json?: unknown) =>
  call(method, `/api/${tenant.id}${path}`, { token: tenant.adminKey, ...(json === undefined ? {} : { json }) })

const orgViewer = { role: "viewer", scope: { type: "organization" } }

layer(makeTestServer(), { excludeTestServices: true })("SSO groups v2", (it) => {
  it.effect("POST creates a mapping with its roles: 201, Location, ETag; GET reads it back", () =>
    Effect.gen(function*() {
      const tenant = yield* seedTenant
      const reply = yield* v2(tenant)("POST", "/sso-groups", {
        name: "Okta Engineers",
        roles: [orgViewer, { role: "editor", scope: { type: "lh_connection", id: "lake" } }]
      })
      expect(reply.status).toBe(201)
      const group = reply.body
      expect(reply.headers.get("location")).toBe(`/v2/sso-groups/${group.id}`)
      expect(reply.headers.get("etag")).toBe(group.etag)
      expect(Object.keys(group).sort()).toEqual(
        ["create_time", "created_at", "etag", "id", "name", "roles", "update_time", "updated_at"]
      )
      expect(group.roles).toEqual([
        expect.objectContaining({ role: "viewer", scope: { type: "organization", id: tenant.id, name: tenant.id } }),
        expect.objectContaining({ role: "editor", scope: { type: "lh_connection", id: "lake", name: "lake" } })
      ])
      expect(Object.keys(group.roles[0]).sort()).toEqual(["create_time", "created_at", "id", "role", "scope", "update_time", "updated_at"])
      const read = yield* v2(tenant)("GET", `/sso-groups/${group.id}`)
      expect(read.body).toEqual(group)
      expect(read.headers.get("etag")).toBe(group.etag)
    }))

  it.effect("POST needs a name and at least one role; a taken name is 409; bad scopes point at their index", () =>
    Effect.gen(function*() {
      const tenant = yield* seedTenant
      const create = (json: unknown) => v2(tenant)("POST", "/sso-groups", json)
      expect((yield* create({ name: "a", roles: [orgViewer] })).status).toBe(201)
      const taken = yield* create({ name: "a", roles: [orgViewer] })
      expect(taken.status).toBe(409)
      expect(taken.body.code).toBe("already_exists")
      const cases = [
        [{ name: "b", roles: [] }, ["body.roles"]],
        [{ name: "", roles: [orgViewer] }, ["body.name"]],
        [{ roles: [orgViewer] }, ["body.name"]],
        [{ name: "b", roles: [{ role: "root", scope: { type: "organization" } }] }, ["body.roles[0].role"]],
        [
          { name: "b", roles: [orgViewer, { role: "viewer", scope: { type: "dw_account", id: randomUUID() } }, { role: "viewer", scope: { type: "usage_group" } }] },
          ["body.roles[1].scope.id", "body.roles[2].scope.id"]
        ]
      ] as const
      for (const [json, fields] of cases) {
        const reply = yield* create(json)
        expect(reply.status, JSON.stringify(json)).toBe(422)
        expect(reply.body.details.map((detail: { field: string }) => detail.field), JSON.stringify(json)).toEqual(fields)
      }
    }))

  it.effect("GET /sso-groups pages with max_results and page_token; foreign and unknown ids are 404", () =>
    Effect.gen(function*() {
      const tenant = yield* seedTenant
      const other = yield* seedTenant
      const names = ["g1", "g2", "g3"]
      for (const name of names) yield* v2(tenant)("POST", "/sso-groups", { name, roles: [orgViewer] })
      const first = yield* v2(tenant)("GET", "/sso-groups?max_results=2")
      expect(first.status).toBe(200)
      expect(first.body).toMatchObject({ row_count: 2, page_token: expect.any(String) })
      const second = yield* v2(tenant)("GET", `/sso-groups?max_results=2&page_token=${first.body.page_token}`)
      expect(second.body).toMatchObject({ row_count: 1, page_token: null })
      expect([...first.body.items, ...second.body.items].map((group: { name: string }) => group.name).sort()).toEqual(names)
      expect((yield* v2(other)("GET", "/sso-groups")).body.items).toEqual([])
      expect((yield* v2(other)("GET", `/sso-groups?page_token=${first.body.page_token}`)).status).toBe(400)
      expect((yield* v2(tenant)("GET", "/sso-groups?max_results=0")).status).toBe(422)
      expect((yield* v2(other)("GET", `/sso-groups/${first.body.items[0].id}`)).status).toBe(404)
      expect((yield* v2(tenant)("GET", "/sso-groups/not-an-id")).status).toBe(404)
    }))

  it.effect("PATCH renames (If-Match optional), audited; an empty name is 422, a taken one 409, a stale ETag 412", () =>
    Effect.gen(function*() {
      const tenant = yield* seedTenant
      const created = (yield* v2(tenant)("POST", "/sso-groups", { name: "old", roles: [orgViewer] })).body
      yield* v2(tenant)("POST", "/sso-groups", { name: "taken", roles: [orgViewer] })
      const patch = (json: unknown, headers: Record<string, string> = {}) =>
        v2(tenant)("PATCH", `/sso-groups/${created.id}`, json, headers)

      const renamed = yield* patch({ name: "new" }, { "if-match": created.etag })
      expect(renamed.status).toBe(200)
      expect(renamed.body).toMatchObject({ id: created.id, name: "new", roles: created.roles })
      expect(renamed.headers.get("etag")).toBe(renamed.body.etag)
      expect((yield* patch({ name: "newer" }, { "if-match": created.etag })).status).toBe(412)
      expect((yield* patch({ name: "" })).body.details[0].field).toBe("body.name")
      expect((yield* patch({ roles: [] })).body.details[0].field).toBe("body.roles")
      expect((yield* patch({ name: "taken" })).status).toBe(409)
      const audit = yield* v2(tenant)("GET", "/audit-logs?table_name__in=sso_groups&operation__in=update")
      expect(audit.body.items).toEqual([
        expect.objectContaining({ resource: "user_roles", record_id: created.id, old_values: { name: "old" }, new_values: { name: "new" } })
      ])
    }))
})

layer(makeTestServer(), { excludeTestServices: true })("SSO group mappings v1", (it) => {
  it.effect("POST creates a mapping by name, PUT renames it by name, GET lists with limit and offset", () =>
    Effect.gen(function*() {
      const tenant = yield* seedTenant
      const created = yield* v1(tenant)("POST", "/sso-group-mappings", { sso_group_name: "okta admins", roles: [orgViewer] })
      expect(created.status).toBe(200)
      expect(created.body).toEqual({
        sso_group_name: "okta admins",
        roles: [{
          id: expect.any(String),
          role: "viewer",
          scope: { type: "organization", id: tenant.id, name: tenant.id },
          created_at: expect.any(String),
          updated_at: expect.any(String)
        }]
      })
      yield* v1(tenant)("POST", "/sso-group-mappings", { sso_group_name: "second", roles: [orgViewer] })

      const renamed = yield* v1(tenant)("PUT", `/sso-group-mappings/${encodeURIComponent("okta admins")}`, { new_sso_group_name: "okta owners" })
      expect(renamed.status).toBe(200)
      expect(renamed.body.sso_group_name).toBe("okta owners")
      expect(renamed.headers.get("link")).toBe("</v2/sso-groups>; rel=\"successor-version\"")
      expect((yield* v1(tenant)("PUT", "/sso-group-mappings/okta%20admins", { new_sso_group_name: "x" })).status).toBe(404)

      const page = yield* v1(tenant)("GET", "/sso-group-mappings?limit=1&offset=1")
      expect(page.body).toMatchObject({ limit: 1, offset: 1, remaining_count: 0 })
      expect(page.body.sso_groups.map((group: { sso_group_name: string }) => group.sso_group_name)).toEqual(["second"])
      const all = yield* v1(tenant)("GET", "/sso-group-mappings")
      expect(all.body).toMatchObject({ limit: 100, offset: 0, remaining_count: 0 })
      expect(all.body.sso_groups).toHaveLength(2)
    }))

  it.effect("v1 validation: FastAPI 422s for a missing name, no roles, an empty new name or a bad limit; 409 for a taken name", () =>
    Effect.gen(function*() {
      const tenant = yield* seedTenant
      const missing = yield* v1(tenant)("POST", "/sso-group-mappings", { roles: [orgViewer] })
      expect(missing.body.detail).toEqual([{ type: "missing", loc: ["body", "sso_group_name"], msg: "is required", input: { roles: [orgViewer] }, url: "https://errors.pydantic.dev/2.10/v/missing" }])
      const noRoles = yield* v1(tenant)("POST", "/sso-group-mappings", { sso_group_name: "x", roles: [] })
      expect(noRoles.body.detail[0].loc).toEqual(["body", "roles"])
      const badScope = yield* v1(tenant)("POST", "/sso-group-mappings", { sso_group_name: "x", roles: [{ role: "viewer", scope: { type: "usage_group", id: randomUUID() } }] })
      expect(badScope.status).toBe(422)
      expect(badScope.body.detail[0].loc).toEqual(["body", "roles", "0", "scope", "id"])
      yield* v1(tenant)("POST", "/sso-group-mappings", { sso_group_name: "x", roles: [orgViewer] })
      expect((yield* v1(tenant)("POST", "/sso-group-mappings", { sso_group_name: "x", roles: [orgViewer] })).status).toBe(409)
      const empty = yield* v1(tenant)("PUT", "/sso-group-mappings/x", { new_sso_group_name: "" })
      expect(empty.status).toBe(422)
      expect(empty.body.detail[0].loc).toEqual(["body", "new_sso_group_name"])
      for (const query of ["limit=0", "limit=1001", "offset=-1"]) {
        const reply = yield* v1(tenant)("GET", `/sso-group-mappings?${query}`)
        expect(reply.status, query).toBe(422)
        expect(reply.body.detail[0].loc[0]).toBe("query")
      }
    }))
})
