/** `POST /v2/dw-ingestions` through the real server: results in insights and attribution, admin only, all or nothing. */
import { DwExportGenerator } from "@costline/core"
import { layer } from "@effect/vitest"
import { Effect } from "effect"
import { expect } from "vitest"
import { makeTestServer, seedTenant } from "./support/TestServer.js"
import { equals, newGroup, newSet, SETS, v2 } from "./support/Usage.js"

const { generateExports, METERING_HEADER, QUERY_HEADER, toCsv, toJsonLines } = DwExportGenerator
const generated = generateExports({ days: 10, controls: 1 })
const metering = { format: "csv", content: toCsv(METERING_HEADER, generated.metering()) }
const queries = { format: "jsonl", content: toJsonLines(generated.queries()) }
const queriesCsv = { format: "csv", content: toCsv(QUERY_HEADER, generated.queries()) }
const INGEST_LIMIT = 16 * 1024 * 1024
const TIMEOUT = 180_000

layer(makeTestServer({ maxIngestBodyBytes: INGEST_LIMIT }), { excludeTestServices: true })("dw ingestions", (it) => {
  it.effect("ingests exports far above the API-wide body limit; insights and attribution show the results", () =>
    Effect.gen(function*() {
      const tenant = yield* seedTenant
      const body = JSON.stringify({ metering, queries: queriesCsv })
      expect(body.length).toBeGreaterThan(1024 * 1024)
      const reply = yield* v2(tenant)("POST", "/v2/dw-ingestions", { body, headers: { "content-type": "application/json" } })
      expect(reply.status).toBe(200)
      expect(reply.body).toMatchObject({ insights_created: generated.planted.length, insights_updated: 0 })
      expect(Math.abs(reply.body.query_credits + reply.body.idle_credits - generated.computeCredits)).toBeLessThan(1e-4)

      const insights = yield* v2(tenant)("GET", "/v2/insights?max_results=100")
      const found = insights.body.items.map((i: { insight_type: string; resource_id: string }) => `${i.insight_type} ${i.resource_id}`)
      expect(found.sort()).toEqual(generated.planted.map((p) => `${p.insight_type} ${p.resource_id}`).sort())

      const set = yield* newSet(tenant)
      yield* newGroup(tenant, set.id, { name: "Idle", filter_expression: equals("warehouse_name", "IDLE_WH") })
      const attribution = yield* v2(tenant)("GET", `${SETS}/${set.id}/attribution?month=2024-03`)
      expect(attribution.body.groups[0].spent).toBeCloseTo(13 * 10 * 4, 6)

      const audit = yield* v2(tenant)("GET", "/v2/audit-logs?event_type__in=organization")
      expect(audit.body.items.map((r: { table_name: string; operation: string }) => [r.table_name, r.operation])).toEqual([
        ["dw_ingestions", "update"]
      ])

      // Again, as JSON Lines: nothing new, nothing rewritten.
      const again = yield* v2(tenant)("POST", "/v2/dw-ingestions", { json: { metering, queries, window_days: 30 } })
      expect(again.body).toMatchObject({ insights_created: 0, insights_updated: 0, insights_unchanged: generated.planted.length, insights_retired: 0 })
    }), TIMEOUT)

  it.effect("admin only: an editor is refused, and the refusal is audited", () =>
    Effect.gen(function*() {
      const tenant = yield* seedTenant
      const editor = yield* tenant.userSession("editor")
      const reply = yield* v2(tenant)("POST", "/v2/dw-ingestions", { token: editor.token, json: { metering, queries } })
      expect(reply.status).toBe(403)
      const audit = yield* v2(tenant)("GET", "/v2/audit-logs?event_type__in=organization")
      expect(audit.body.items).toMatchObject([{ table_name: "dw_ingestions", status: "failure" }])
      expect((yield* v2(tenant)("GET", "/v2/insights")).body.items).toEqual([])
    }), TIMEOUT)

  it.effect("bad rows: 422 naming every bad line, nothing stored; an oversized body: 413", () =>
    Effect.gen(function*() {
      const tenant = yield* seedTenant
      const bad = { format: "csv", content: `${METERING_HEADER.join(",")}\nyesterday,x,1,WH,1,1,0\n` }
      const reply = yield* v2(tenant)("POST", "/v2/dw-ingestions", { json: { metering: bad, queries: { format: "jsonl", content: "{}\n" } } })
      expect(reply.status).toBe(422)
      expect(reply.headers.get("content-type")).toContain("application/problem+json")
      expect(reply.body.details.map((d: { field: string }) => d.field)).toEqual(["body.metering line 2", "body.queries line 1"])
      expect((yield* v2(tenant)("GET", "/v2/insights")).body.items).toEqual([])

      const unknownField = yield* v2(tenant)("POST", "/v2/dw-ingestions", { json: { metering, queries, extra: 1 } })
      expect(unknownField.status).toBe(422)

      const huge = yield* v2(tenant)("POST", "/v2/dw-ingestions", {
        json: { metering, queries: { format: "jsonl", content: "x".repeat(INGEST_LIMIT) } }
      })
      expect(huge.status).toBe(413)
      // The API-wide limit still holds elsewhere.
      const elsewhere = yield* v2(tenant)("POST", SETS, { json: { name: "x".repeat(2 * 1024 * 1024) } })
      expect(elsewhere.status).toBe(413)
    }), TIMEOUT)
})
