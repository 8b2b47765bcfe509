/** Usage group sets and groups through the real server, deprecated v1. */
import { layer } from "@effect/vitest"
import { Effect } from "effect"
import { expect } from "vitest"
import { makeTestServer, seedTenant } from "./support/TestServer.js"
import { equals, newGroup, newSet, usageAudit, v1 } from "./support/Usage.js"

layer(makeTestServer(), { excludeTestServices: true })("usage group sets and groups, v1", (it) => {
  it.effect("POST /api/{org}/usage-group-sets answers 200 with the v1 set; the deprecated fields are accepted and ignored", () =>
    Effect.gen(function*() {
      const tenant = yield* seedTenant
      const reply = yield* v1(tenant)("POST", "/usage-group-sets", {
        json: { name: "Cost centers", order: 1, dw_account_uuid: "acc-1", dw_organization_name: "ACME", team_id: null }
      })
      expect(reply.status).toBe(200)
      expect(Object.keys(reply.body).sort()).toEqual(
        ["created_at", "dw_account_uuid", "dw_organization_name", "id", "name", "order", "team_id", "updated_at"]
      )
      expect(reply.body).toMatchObject({ name: "Cost centers", order: 1, dw_account_uuid: null, dw_organization_name: null })
      expect(reply.headers.get("deprecation")).not.toBeNull()
      expect(reply.headers.get("link")).toBe("</v2/usage-group-sets>; rel=\"successor-version\"")
      const duplicate = yield* v1(tenant)("POST", "/usage-group-sets", { json: { name: "COST CENTERS" } })
      expect(duplicate.status).toBe(409)
      expect(duplicate.body).toEqual({ detail: "a usage group set named 'COST CENTERS' already exists" })
    }))

  it.effect("GET /api/{org}/usage-group-sets/{id} answers the set with its groups by order", () =>
    Effect.gen(function*() {
      const tenant = yield* seedTenant
      const set = yield* newSet(tenant)
      for (const [name, order] of [["second", 5], ["first", 1]] as const) yield* newGroup(tenant, set.id, { name, order })
      const reply = yield* v1(tenant)("GET", `/usage-group-sets/${set.id}`)
      expect(reply.status).toBe(200)
      expect(reply.body).toMatchObject({ id: set.id, name: "Cost centers", dw_account_uuid: null })
      expect(reply.body.usage_groups.map((g: { name: string }) => g.name)).toEqual(["first", "second"])
      expect(Object.keys(reply.body.usage_groups[0]).sort()).toEqual([
        "budget",
        "created_at",
        "filter_expression",
        "filter_expression_json",
        "id",
        "name",
        "order",
        "updated_at",
        "usage_group_set_id",
        "usage_group_set_name"
      ])
      expect(reply.headers.get("link")).toBe(`</v2/usage-group-sets/${set.id}>; rel="successor-version"`)
    }))

  it.effect("PUT changes only the fields sent; budget null removes the limit; the body id, if sent, must be the path's", () =>
    Effect.gen(function*() {
      const tenant = yield* seedTenant
      const set = yield* newSet(tenant)
      const group = yield* newGroup(tenant, set.id, { budget: 50, order: 2 })
      const path = `/usage-group-sets/${set.id}/usage-groups/${group.id}`
      const renamed = yield* v1(tenant)("PUT", path, { json: { id: group.id, name: "ETL jobs" } })
      expect(renamed.status).toBe(200)
      expect(renamed.body).toMatchObject({ id: group.id, name: "ETL jobs", budget: 50, order: 2, filter_expression: group.filter_expression })
      expect("etag" in renamed.body).toBe(false)
      const unlimited = yield* v1(tenant)("PUT", path, { json: { budget: null, filter_expression_json: JSON.stringify(equals("user_name", "loader")) } })
      expect(unlimited.body).toMatchObject({ name: "ETL jobs", budget: null, order: 2 })
      expect(JSON.parse(unlimited.body.filter_expression_json).filters[0].field.path).toEqual(["user_name"])

      const otherId = yield* v1(tenant)("PUT", path, { json: { id: set.id, name: "x" } })
      expect(otherId.status).toBe(422)
      expect(otherId.body.detail).toEqual([
        { type: "value_error", loc: ["body", "id"], msg: "must equal the usage_group_id of the path", input: set.id }
      ])
      expect((yield* usageAudit(tenant, 1))[0]).toMatchObject({ operation: "update", new_values: { budget: null } })
    }))

  it.effect("PUT bad input is a FastAPI 422 at the exact location", () =>
    Effect.gen(function*() {
      const tenant = yield* seedTenant
      const set = yield* newSet(tenant)
      const group = yield* newGroup(tenant, set.id)
      const put = (json: Record<string, unknown>) =>
        Effect.map(v1(tenant)("PUT", `/usage-group-sets/${set.id}/usage-groups/${group.id}`, { json }), (reply) => {
          expect(reply.status).toBe(422)
          return reply.body.detail.map((d: { loc: Array<string> }) => d.loc)
        })
      const filter = equals("warehouse_name", "ETL")
      expect(yield* put({ filter_expression: filter, filter_expression_json: JSON.stringify(filter) }))
        .toEqual([["body", "filter_expression_json"]])
      expect(yield* put({ filter_expression_json: "not json" })).toEqual([["body", "filter_expression_json"]])
      expect(yield* put({ filter_expression: equals("warehouse_name", 1) })).toEqual([["body", "filter_expression", "filters", "0", "value"]])
      expect(yield* put({ filter_expression: equals("no_such_dimension", "x") }))
        .toEqual([["body", "filter_expression", "filters", "0", "field", "path"]])
      const longIlike = { operator: "and", filters: [{ field: { path: ["user_name"] }, operator: "ilike", value: "%a".repeat(500) + "b" }] }
      expect(yield* put({ filter_expression: longIlike })).toEqual([["body", "filter_expression", "filters", "0", "value"]])
      const tooLong = yield* v1(tenant)("PUT", `/usage-group-sets/${set.id}/usage-groups/${group.id}`, { json: { filter_expression: longIlike } })
      expect(tooLong.body.detail).toMatchObject([{ type: "value_error", msg: "must be at most 1000 characters; this one has 1001" }])
      expect(yield* put({ name: "" })).toEqual([["body", "name"]])
      expect(yield* put({ order: -3 })).toEqual([["body", "order"]])
      expect(yield* put({ id: "not-a-uuid" })).toEqual([["body", "id"]])
    }))

  it.effect("DELETE answers {\"success\": true}; a second time, or another tenant, 404", () =>
    Effect.gen(function*() {
      const [tenant, other] = [yield* seedTenant, yield* seedTenant]
      const set = yield* newSet(tenant)
      const group = yield* newGroup(tenant, set.id)
      const path = `/usage-group-sets/${set.id}/usage-groups/${group.id}`
      expect((yield* v1(other)("DELETE", path)).status).toBe(404)
      const deleted = yield* v1(tenant)("DELETE", path)
      expect(deleted.status).toBe(200)
      expect(deleted.body).toEqual({ success: true })
      const again = yield* v1(tenant)("DELETE", path)
      expect(again.status).toBe(404)
      expect(again.body).toEqual({ detail: `usage group ${group.id} not found` })
      expect((yield* usageAudit(tenant, 1))[0]).toMatchObject({ operation: "delete", record_id: group.id })
    }))

  it.effect("a key of another organization is refused with 403", () =>
    Effect.gen(function*() {
      const [tenant, other] = [yield* seedTenant, yield* seedTenant]
      const reply = yield* v1(tenant)("POST", "/usage-group-sets", { token: other.adminKey, json: { name: "Mine" } })
      expect(reply.status).toBe(403)
    }))
})
