/** The dimension catalogue and a set's monthly attribution through the real server. */
import { UsageImport } from "@costline/core"
import { layer } from "@effect/vitest"
import { Effect, Stream } from "effect"
import { expect } from "vitest"
import { makeTestServer, seedTenant } from "./support/TestServer.js"
import { equals, newGroup, newSet, SETS, type Tenant, v2 } from "./support/Usage.js"

const importUsage = (tenant: Tenant, rows: ReadonlyArray<Record<string, unknown>>) =>
  Effect.flatMap(UsageImport.UsageImport, (usage) =>
    usage.run(tenant.id, { format: "jsonl", open: () => Stream.make(rows.map((row) => JSON.stringify(row)).join("\n")) }))

layer(makeTestServer(), { excludeTestServices: true })("usage dimensions and attribution", (it) => {
  it.effect("GET /v2/usage-dimensions lists the catalogue of a scope, organization by default", () =>
    Effect.gen(function*() {
      const tenant = yield* seedTenant
      const organization = yield* v2(tenant)("GET", "/v2/usage-dimensions")
      expect(organization.status).toBe(200)
      expect(organization.body).toMatchObject({ scope: "organization", page_token: null })
      expect(organization.body.row_count).toBe(organization.body.items.length)
      const paths = (items: Array<{ path: Array<string> }>) => items.map((d) => d.path.join("."))
      expect(paths(organization.body.items)).toContain("account_name")
      expect(organization.body.items.find((d: { path: Array<string> }) => d.path[0] === "tags")).toMatchObject({
        type: "tag_map",
        operators: expect.arrayContaining(["=", "in", "ilike"])
      })
      const team = yield* v2(tenant)("GET", "/v2/usage-dimensions?scope=team")
      expect(paths(team.body.items)).not.toContain("account_name")
      expect(paths(team.body.items)).toContain("warehouse_name")
      const unknown = yield* v2(tenant)("GET", "/v2/usage-dimensions?scope=galaxy")
      expect(unknown.status).toBe(422)
      expect(unknown.body.details[0].field).toBe("query.scope")
    }))

  it.effect("GET …/attribution?month= attributes the month's usage by precedence, with each group's budget status", () =>
    Effect.gen(function*() {
      const tenant = yield* seedTenant
      const set = yield* newSet(tenant)
      const etl = yield* newGroup(tenant, set.id, { name: "ETL", order: 1, budget: 10 })
      const bi = yield* newGroup(tenant, set.id, { name: "BI", order: 2, budget: 100, filter_expression: equals("warehouse_name", "BI") })
      yield* importUsage(tenant, [
        { start_time: "2024-05-01T00:00:00Z", credits: 4, warehouse_name: "ETL" },
        { start_time: "2024-05-31T23:59:59Z", credits: 7, warehouse_name: "ETL" },
        { start_time: "2024-05-10T00:00:00Z", credits: 80, warehouse_name: "BI" },
        { start_time: "2024-05-10T00:00:00Z", credits: 2.5, warehouse_name: "ML" },
        { start_time: "2024-06-01T00:00:00Z", credits: 500, warehouse_name: "BI" }
      ])
      const reply = yield* v2(tenant)("GET", `${SETS}/${set.id}/attribution?month=2024-05`)
      expect(reply.status).toBe(200)
      expect(reply.body).toEqual({
        usage_group_set_id: set.id,
        month: "2024-05",
        groups: [
          { usage_group_id: etl.id, name: "ETL", order: 1, records: 2, spent: 11, budget: 10, remaining: -1, status: "over_budget" },
          { usage_group_id: bi.id, name: "BI", order: 2, records: 1, spent: 80, budget: 100, remaining: 20, status: "at_risk" }
        ],
        unattributed: { credits: 2.5, records: 1 }
      })
      // A read: reporting raises no insight (`costline usage report` does).
      expect((yield* v2(tenant)("GET", "/v2/insights")).body.items).toEqual([])
    }))

  it.effect("the month must be YYYY-MM; viewers may read attribution", () =>
    Effect.gen(function*() {
      const tenant = yield* seedTenant
      const set = yield* newSet(tenant)
      for (const month of ["2024-13", "2024-5", "May"]) {
        const reply = yield* v2(tenant)("GET", `${SETS}/${set.id}/attribution?month=${month}`)
        expect(reply.status).toBe(422)
        expect(reply.body.details).toMatchObject([{ field: "query.month", message: "must be a month: YYYY-MM, such as 2024-05" }])
      }
      expect((yield* v2(tenant)("GET", `${SETS}/${set.id}/attribution`)).body.details[0]).toMatchObject({ field: "query.month", issue: "missing" })
      const viewer = yield* tenant.userSession("viewer")
      const read = yield* v2(tenant)("GET", `${SETS}/${set.id}/attribution?month=2024-05`, { token: viewer.token })
      expect(read.body).toMatchObject({ groups: [], unattributed: { credits: 0, records: 0 } })
    }))

  it.effect("POST …/actions/raise-budget-alerts raises one budget_exceeded insight per group over budget, once", () =>
    Effect.gen(function*() {
      const tenant = yield* seedTenant
      const set = yield* newSet(tenant)
      const etl = yield* newGroup(tenant, set.id, { name: "ETL", order: 1, budget: 10 })
      yield* newGroup(tenant, set.id, { name: "BI", order: 2, budget: 100, filter_expression: equals("warehouse_name", "BI") })
      yield* importUsage(tenant, [
        { start_time: "2024-05-01T00:00:00Z", credits: 11, warehouse_name: "ETL" },
        { start_time: "2024-05-10T00:00:00Z", credits: 80, warehouse_name: "BI" }
      ])
      const raise = v2(tenant)("POST", `${SETS}/${set.id}/actions/raise-budget-alerts`, { json: { month: "2024-05" } })
      const first = yield* raise
      expect(first.status).toBe(200)
      const read = yield* v2(tenant)("GET", `${SETS}/${set.id}/attribution?month=2024-05`)
      const { alerts, ...attribution } = first.body
      expect(attribution).toEqual(read.body)
      const insights = (yield* v2(tenant)("GET", "/v2/insights")).body.items
      expect(insights).toMatchObject([{ insight_type: "budget_exceeded", resource_id: `${etl.id}/2024-05`, potential_savings: 1 }])
      expect(alerts).toEqual([{ usage_group_id: etl.id, insight_id: insights[0].id, result: "created" }])
      expect((yield* raise).body.alerts).toEqual([{ usage_group_id: etl.id, insight_id: insights[0].id, result: "unchanged" }])
      const audit = yield* v2(tenant)("GET", "/v2/audit-logs?resource__in=insights")
      expect(audit.body.items).toMatchObject([{ operation: "create", record_id: insights[0].id, changed_by_type: "api_key" }])
    }))

  it.effect("raising alerts also needs read access to usage groups: its answer is the attribution GET …/attribution refuses", () =>
    Effect.gen(function*() {
      const tenant = yield* seedTenant
      const set = yield* newSet(tenant)
      yield* newGroup(tenant, set.id, { name: "Project Falcon", order: 1, budget: 1 })
      yield* importUsage(tenant, [{ start_time: "2024-05-01T00:00:00Z", credits: 5, warehouse_name: "ETL" }])
      const insightsOnly = yield* tenant.apiKey("read_write", ["insights:write"])
      expect((yield* v2(tenant)("GET", `${SETS}/${set.id}/attribution?month=2024-05`, { token: insightsOnly })).status).toBe(403)
      const raised = yield* v2(tenant)("POST", `${SETS}/${set.id}/actions/raise-budget-alerts`, {
        json: { month: "2024-05" },
        token: insightsOnly
      })
      expect(raised.status).toBe(403)
      expect(JSON.stringify(raised.body)).not.toContain("Project Falcon")
      expect((yield* v2(tenant)("GET", "/v2/insights")).body.items).toEqual([])
      const refused = yield* v2(tenant)("GET", "/v2/audit-logs?status__in=failure")
      expect(refused.body.items).toMatchObject([{ resource: "insights", table_name: "insights", operation: "create" }])
      // With both, it raises.
      const both = yield* tenant.apiKey("read_write", ["insights:write", "usage_groups:read"])
      const allowed = yield* v2(tenant)("POST", `${SETS}/${set.id}/actions/raise-budget-alerts`, { json: { month: "2024-05" }, token: both })
      expect(allowed.status).toBe(200)
      expect(allowed.body.alerts).toHaveLength(1)
    }))

  it.effect("raising alerts needs write access to insights (a refusal is audited) and a YYYY-MM month", () =>
    Effect.gen(function*() {
      const tenant = yield* seedTenant
      const set = yield* newSet(tenant)
      const path = `${SETS}/${set.id}/actions/raise-budget-alerts`
      const viewer = yield* tenant.userSession("viewer")
      expect((yield* v2(tenant)("POST", path, { json: { month: "2024-05" }, token: viewer.token })).status).toBe(403)
      const refused = yield* v2(tenant)("GET", "/v2/audit-logs?status__in=failure")
      expect(refused.body.items).toMatchObject([{ resource: "insights", table_name: "insights", operation: "create" }])
      const badMonth = yield* v2(tenant)("POST", path, { json: { month: "May" } })
      expect(badMonth.status).toBe(422)
      expect(badMonth.body.details[0]).toMatchObject({ field: "body.month" })
      const unknown = yield* v2(tenant)("POST", `${SETS}/00000000-0000-4000-8000-000000000000/actions/raise-budget-alerts`, {
        json: { month: "2024-05" }
      })
      expect(unknown.status).toBe(404)
    }))
})
