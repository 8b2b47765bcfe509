/** Usage group sets and groups through the real server, v2. */
import { Actor, Team, Teams } from "@costline/core"
import { layer } from "@effect/vitest"
import { Effect } from "effect"
import { expect } from "vitest"
import { makeTestServer, seedTenant } from "./support/TestServer.js"
import { equals, newGroup, newSet, SETS, usageAudit, v2 } from "./support/Usage.js"

const GROUP_KEYS = [
  "budget",
  "create_time",
  "created_at",
  "etag",
  "filter_expression",
  "filter_expression_json",
  "id",
  "name",
  "order",
  "update_time",
  "updated_at",
  "usage_group_set_id",
  "usage_group_set_name"
]

layer(makeTestServer(), { excludeTestServices: true })("usage group sets and groups, v2", (it) => {
  it.effect("POST /v2/usage-group-sets answers 201 with Location and ETag; GET reads it back; both audited once", () =>
    Effect.gen(function*() {
      const tenant = yield* seedTenant
      const created = yield* v2(tenant)("POST", SETS, {
        headers: { "x-request-id": "req-usage-set" },
        json: { name: " Cost centers ", order: 2 }
      })
      expect(created.status).toBe(201)
      expect(Object.keys(created.body).sort()).toEqual(
        ["create_time", "created_at", "etag", "id", "name", "order", "team_id", "update_time", "updated_at"]
      )
      expect(created.body).toMatchObject({ name: "Cost centers", order: 2, team_id: null })
      expect(created.headers.get("location")).toBe(`${SETS}/${created.body.id}`)
      expect(created.headers.get("etag")).toBe(created.body.etag)

      const read = yield* v2(tenant)("GET", created.headers.get("location")!)
      expect(read.status).toBe(200)
      expect(read.body).toEqual(created.body)
      expect(read.headers.get("etag")).toBe(created.body.etag)
      expect(yield* usageAudit(tenant)).toMatchObject([{
        table_name: "usage_group_sets",
        operation: "create",
        record_id: created.body.id,
        request_id: "req-usage-set",
        new_values: { name: "Cost centers", order: 2, team_id: null }
      }])
    }))

  it.effect("set names are unique per organization ignoring case: 409 already_exists", () =>
    Effect.gen(function*() {
      const tenant = yield* seedTenant
      yield* newSet(tenant, { name: "Cost Centers" })
      const duplicate = yield* v2(tenant)("POST", SETS, { json: { name: "cost centers" } })
      expect(duplicate.status).toBe(409)
      expect(duplicate.body).toMatchObject({ code: "already_exists", detail: "a usage group set named 'cost centers' already exists" })
    }))

  it.effect("team_id must be a team of the tenant: another tenant's team is a 422 at body.team_id", () =>
    Effect.gen(function*() {
      const [tenant, other] = [yield* seedTenant, yield* seedTenant]
      const teams = yield* Teams.Teams
      const team = (organization: typeof tenant.id) =>
        teams.create(Actor.Actor.system(), organization, new Team.CreateTeam({ name: "Data", is_all_users: false, default_member_role: "viewer" }))
      const own = yield* team(tenant.id)
      expect((yield* newSet(tenant, { name: "By team", team_id: own.id })).team_id).toBe(own.id)
      const foreign = yield* v2(tenant)("POST", SETS, { json: { name: "Foreign", team_id: (yield* team(other.id)).id } })
      expect(foreign.status).toBe(422)
      expect(foreign.body.details).toMatchObject([{ field: "body.team_id", issue: "not_found" }])
    }))

  it.effect("set bad input is a 422 naming the field: empty name, negative order, unknown field", () =>
    Effect.gen(function*() {
      const tenant = yield* seedTenant
      const fieldsOf = (json: unknown) => Effect.map(v2(tenant)("POST", SETS, { json }), (r) => [r.status, r.body.details.map((d: { field: string }) => d.field)])
      expect(yield* fieldsOf({ name: "  " })).toEqual([422, ["body.name"]])
      expect(yield* fieldsOf({ name: "A", order: -1 })).toEqual([422, ["body.order"]])
      expect(yield* fieldsOf({ name: "A", owner: "me" })).toEqual([422, ["body.owner"]])
    }))

  it.effect("POST a group: 201, Location to a readable group, the filter normalised and as JSON text, audited", () =>
    Effect.gen(function*() {
      const tenant = yield* seedTenant
      const set = yield* newSet(tenant)
      const reply = yield* v2(tenant)("POST", `${SETS}/${set.id}/usage-groups`, {
        json: { name: "ETL", budget: 250, order: 1, filter_expression: equals("warehouse_name", "ETL") }
      })
      expect(reply.status).toBe(201)
      const group = reply.body
      expect(Object.keys(group).sort()).toEqual(GROUP_KEYS)
      expect(group).toMatchObject({ name: "ETL", budget: 250, order: 1, usage_group_set_id: set.id, usage_group_set_name: "Cost centers" })
      const normalised = {
        component_type: "Resource Filter",
        operator: "and",
        not: false,
        filters: [{ field: { field: "warehouse_name", path: ["warehouse_name"] }, operator: "=", value: "ETL", not: false }]
      }
      expect(group.filter_expression).toEqual(normalised)
      expect(JSON.parse(group.filter_expression_json)).toEqual(normalised)
      expect(reply.headers.get("etag")).toBe(group.etag)

      const read = yield* v2(tenant)("GET", reply.headers.get("location")!)
      expect(read.status).toBe(200)
      expect(read.body).toEqual(group)
      expect((yield* usageAudit(tenant, 1))[0]).toMatchObject({
        resource: "usage_group_sets",
        table_name: "usage_groups",
        operation: "create",
        record_id: group.id,
        new_values: { usage_group_set_id: set.id, name: "ETL", budget: 250, order: 1, filter_expression: normalised }
      })
    }))

  it.effect("filter_expression_json (infrastructure as code) stores the same expression as the object form", () =>
    Effect.gen(function*() {
      const tenant = yield* seedTenant
      const set = yield* newSet(tenant)
      const filter = { operator: "or", filters: [equals("warehouse_name", "ETL"), { field: { path: ["tags", "team"] }, operator: "in", value: ["bi"] }] }
      const fromObject = yield* newGroup(tenant, set.id, { name: "A", filter_expression: filter })
      const fromJson = yield* newGroup(tenant, set.id, { name: "B", filter_expression: undefined, filter_expression_json: JSON.stringify(filter) })
      expect(fromJson.filter_expression).toEqual(fromObject.filter_expression)
      expect(fromJson.filter_expression_json).toBe(fromObject.filter_expression_json)
    }))

  it.effect("group bad input is a 422 at the exact location, and nothing is stored", () =>
    Effect.gen(function*() {
      const tenant = yield* seedTenant
      const set = yield* newSet(tenant)
      const post = (json: Record<string, unknown>) =>
        Effect.map(v2(tenant)("POST", `${SETS}/${set.id}/usage-groups`, { json: { name: "G", ...json } }), (reply) => {
          expect(reply.status).toBe(422)
          expect(reply.body.code).toBe("validation_failed")
          return reply.body.details.map((d: { field: string; issue: string }) => [d.field, d.issue])
        })
      const leaf = (extra: Record<string, unknown>) => ({ operator: "and", filters: [{ field: { path: ["warehouse_name"] }, operator: "=", value: "ETL", ...extra }] })
      const filter = equals("warehouse_name", "ETL")

      expect(yield* post({ filter_expression: filter, filter_expression_json: JSON.stringify(filter) }))
        .toEqual([["body.filter_expression_json", "invalid_value"]])
      expect(yield* post({ filter_expression: null, filter_expression_json: null })).toEqual([["body.filter_expression_json", "invalid_value"]])
      expect(yield* post({})).toEqual([["body.filter_expression", "invalid_value"]])
      expect(yield* post({ filter_expression_json: "{\"operator\": \"and\",}" })).toEqual([["body.filter_expression_json", "invalid_json"]])
      expect(yield* post({ filter_expression: leaf({ field: { path: ["warehouse"] } }) }))
        .toEqual([["body.filter_expression.filters[0].field.path", "unknown"]])
      expect(yield* post({ filter_expression: leaf({ operator: ">" }) })).toEqual([["body.filter_expression.filters[0].operator", "not_allowed"]])
      expect(yield* post({ filter_expression: leaf({ value: 5 }) })).toEqual([["body.filter_expression.filters[0].value", "invalid"]])
      expect(yield* post({ filter_expression: { operator: "and", filters: [filter, { operator: "or", filters: [{ field: { path: ["bytes_scanned"] }, operator: ">", value: "big" }] }] } }))
        .toEqual([["body.filter_expression.filters[1].filters[0].value", "invalid"]])
      // Text values hold 1,000 characters: longer is 422 at the exact leaf, in either write form.
      const longLeaf = (operator: string, length: number) => ({
        operator: "and",
        filters: [filter.filters[0], { operator: "or", filters: [{ field: { path: ["query_tag"] }, operator, value: "%".repeat(length) }] }]
      })
      for (const operator of ["contains", "starts_with", "ends_with", "ilike"]) {
        expect(yield* post({ filter_expression: longLeaf(operator, 1001) }))
          .toEqual([["body.filter_expression.filters[1].filters[0].value", "too_long"]])
        expect(yield* post({ filter_expression_json: JSON.stringify(longLeaf(operator, 1001)) }))
          .toEqual([["body.filter_expression_json.filters[1].filters[0].value", "too_long"]])
      }
      const other = yield* newSet(tenant, { name: "Other" })
      const accepted = yield* v2(tenant)("POST", `${SETS}/${other.id}/usage-groups`, { json: { name: "Long", filter_expression: longLeaf("ilike", 1000) } })
      expect(accepted.status).toBe(201)
      expect(yield* post({ name: "", filter_expression: filter })).toEqual([["body.name", "invalid_value"]])
      expect(yield* post({ order: -1, filter_expression: filter })).toEqual([["body.order", "invalid_value"]])

      const invalidJson = yield* v2(tenant)("POST", `${SETS}/${set.id}/usage-groups`, { json: { name: "G", filter_expression_json: "{\"operator\": \"and\",}" } })
      expect(invalidJson.body.detail).toBe("is not valid JSON: unexpected \"}\" at line 1, column 20 (position 19)")
      expect((yield* v2(tenant)("GET", `${SETS}/${set.id}/usage-groups`)).body.items).toEqual([])
    }))

  it.effect("lists groups in precedence order, a page at a time; bad page tokens and sizes are refused", () =>
    Effect.gen(function*() {
      const tenant = yield* seedTenant
      const set = yield* newSet(tenant)
      const ids: Record<string, string> = {}
      for (const [name, order] of [["c", 2], ["a", 0], ["b", 1], ["d", 3], ["e", 4]] as const) {
        ids[name] = (yield* newGroup(tenant, set.id, { name, order })).id
      }
      const names: Array<string> = []
      let path = `${SETS}/${set.id}/usage-groups?max_results=2`
      const sizes: Array<number> = []
      for (;;) {
        const page = yield* v2(tenant)("GET", path)
        expect(page.status).toBe(200)
        expect(page.body.row_count).toBe(page.body.items.length)
        sizes.push(page.body.row_count)
        names.push(...page.body.items.map((g: { name: string }) => g.name))
        if (page.body.page_token === null) break
        path = `${SETS}/${set.id}/usage-groups?max_results=2&page_token=${encodeURIComponent(page.body.page_token)}`
      }
      expect(names).toEqual(["a", "b", "c", "d", "e"])
      expect(sizes).toEqual([2, 2, 1])

      const garbled = yield* v2(tenant)("GET", `${SETS}/${set.id}/usage-groups?page_token=garbage`)
      expect(garbled.status).toBe(400)
      expect(garbled.body.code).toBe("invalid_page_token")
      const tooMany = yield* v2(tenant)("GET", `${SETS}/${set.id}/usage-groups?max_results=501`)
      expect(tooMany.status).toBe(422)
      expect(tooMany.body.details[0].field).toBe("query.max_results")
    }))

  it.effect("PATCH is a merge patch: only what is sent changes, budget null removes the limit, the ETag moves", () =>
    Effect.gen(function*() {
      const tenant = yield* seedTenant
      const set = yield* newSet(tenant)
      const group = yield* newGroup(tenant, set.id, { budget: 100, order: 4 })
      const path = `${SETS}/${set.id}/usage-groups/${group.id}`
      const renamed = yield* v2(tenant)("PATCH", path, { json: { name: "ETL jobs" } })
      expect(renamed.status).toBe(200)
      expect(renamed.body).toMatchObject({ name: "ETL jobs", budget: 100, order: 4, filter_expression: group.filter_expression })
      expect(renamed.body.etag).not.toBe(group.etag)
      expect(renamed.headers.get("etag")).toBe(renamed.body.etag)

      const unlimited = yield* v2(tenant)("PATCH", path, { json: { budget: null } })
      expect(unlimited.body).toMatchObject({ name: "ETL jobs", budget: null, order: 4 })
      const same = yield* v2(tenant)("PATCH", path, { json: { budget: null } })
      expect(same.body.etag).toBe(unlimited.body.etag)

      const typo = yield* v2(tenant)("PATCH", path, { json: { budjet: 5 } })
      expect(typo.status).toBe(422)
      expect(typo.body.details[0].field).toBe("body.budjet")
      const badFilter = yield* v2(tenant)("PATCH", path, { json: { filter_expression: equals("warehouse_name", 7) } })
      expect(badFilter.status).toBe(422)
      expect(badFilter.body.details[0].field).toBe("body.filter_expression.filters[0].value")
      expect((yield* v2(tenant)("GET", path)).body).toEqual(unlimited.body)

      const [update] = yield* usageAudit(tenant, 1)
      expect(update).toMatchObject({
        table_name: "usage_groups",
        operation: "update",
        old_values: { name: "ETL jobs", budget: 100 },
        new_values: { name: "ETL jobs", budget: null }
      })
    }))

  it.effect("If-Match is optional on PATCH and DELETE; a stale one is 412 and changes nothing", () =>
    Effect.gen(function*() {
      const tenant = yield* seedTenant
      const set = yield* newSet(tenant)
      const group = yield* newGroup(tenant, set.id)
      const path = `${SETS}/${set.id}/usage-groups/${group.id}`
      const first = yield* v2(tenant)("PATCH", path, { headers: { "if-match": group.etag }, json: { order: 1 } })
      expect(first.status).toBe(200)
      const stale = yield* v2(tenant)("PATCH", path, { headers: { "if-match": group.etag }, json: { order: 2 } })
      expect(stale.status).toBe(412)
      expect(stale.body.code).toBe("precondition_failed")
      const garbled = yield* v2(tenant)("PATCH", path, { headers: { "if-match": "no quotes" }, json: { order: 2 } })
      expect(garbled.status).toBe(422)
      expect(garbled.body.details[0].field).toBe("header.if-match")
      expect((yield* v2(tenant)("DELETE", path, { headers: { "if-match": group.etag } })).status).toBe(412)
      expect((yield* v2(tenant)("GET", path)).body.order).toBe(1)

      const deleted = yield* v2(tenant)("DELETE", path, { headers: { "if-match": first.body.etag } })
      expect(deleted.status).toBe(204)
      expect(deleted.text).toBe("")
      expect((yield* v2(tenant)("GET", path)).status).toBe(404)
      expect((yield* v2(tenant)("DELETE", path)).status).toBe(404)
      expect((yield* usageAudit(tenant, 1))[0]).toMatchObject({
        table_name: "usage_groups",
        operation: "delete",
        record_id: group.id,
        old_values: { name: "ETL", order: 1 },
        new_values: null
      })
    }))

  it.effect("another tenant's set or group is a 404 on every route, and so is an id that is no UUID", () =>
    Effect.gen(function*() {
      const [tenant, other] = [yield* seedTenant, yield* seedTenant]
      const set = yield* newSet(tenant)
      const group = yield* newGroup(tenant, set.id)
      const groupPath = `${SETS}/${set.id}/usage-groups/${group.id}`
      const asOther = v2(other)
      const statuses = [
        (yield* asOther("GET", `${SETS}/${set.id}`)).status,
        (yield* asOther("GET", `${SETS}/${set.id}/usage-groups`)).status,
        (yield* asOther("POST", `${SETS}/${set.id}/usage-groups`, { json: { name: "x", filter_expression: equals("warehouse_name", "x") } })).status,
        (yield* asOther("GET", groupPath)).status,
        (yield* asOther("PATCH", groupPath, { json: { name: "x" } })).status,
        (yield* asOther("DELETE", groupPath)).status,
        (yield* asOther("GET", `${SETS}/${set.id}/attribution?month=2024-05`)).status
      ]
      expect(statuses).toEqual([404, 404, 404, 404, 404, 404, 404])
      // As for every path id of the API: text that is no id names nothing.
      const notUuid = yield* v2(tenant)("GET", `${SETS}/not-a-uuid`)
      expect(notUuid.status).toBe(404)
      expect(notUuid.body.detail).toBe("usage group set not-a-uuid not found")
      expect((yield* v2(tenant)("PATCH", `${SETS}/${set.id}/usage-groups/42`, { json: { name: "x" } })).status).toBe(404)
    }))

  it.effect("viewers read; editors write; a refused write is audited as a failure with what was asked", () =>
    Effect.gen(function*() {
      const tenant = yield* seedTenant
      const set = yield* newSet(tenant)
      const group = yield* newGroup(tenant, set.id)
      const viewer = yield* tenant.userSession("viewer")
      const editor = yield* tenant.userSession("editor")
      const as = (token: string) => (method: string, path: string, json?: unknown) =>
        v2(tenant)(method, path, { token, ...(json === undefined ? {} : { json }) })
      expect((yield* as(viewer.token)("GET", `${SETS}/${set.id}/usage-groups`)).status).toBe(200)
      const refused = yield* as(viewer.token)("PATCH", `${SETS}/${set.id}/usage-groups/${group.id}`, { budget: 1 })
      expect(refused.status).toBe(403)
      expect((yield* usageAudit(tenant, 1))[0]).toMatchObject({
        table_name: "usage_groups",
        operation: "update",
        record_id: group.id,
        status: "failure",
        changed_by: viewer.email,
        new_values: { budget: 1 }
      })
      expect((yield* as(editor.token)("POST", SETS, { name: "Editors" })).status).toBe(201)
      const readOnly = yield* tenant.apiKey("read_only")
      expect((yield* as(readOnly)("POST", SETS, { name: "Nope" })).status).toBe(403)
      expect((yield* usageAudit(tenant, 1))[0]).toMatchObject({
        table_name: "usage_group_sets",
        operation: "create",
        status: "failure",
        record_id: null,
        new_values: { name: "Nope" }
      })
    }))
})
