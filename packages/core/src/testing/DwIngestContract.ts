/**
 * Contract: ingesting account-usage exports on a real store. Usage records land where usage
 * groups and budgets read them and sum to the metered credits; insights are the planted ones;
 * re-ingesting changes nothing; a bad file stores nothing.
 */
import { addEqualityTesters, expect, layer } from "@effect/vitest"
import { Effect, Layer, Schema, Stream } from "effect"
import { BATCH_SIZE, DwIngest, type IngestSources } from "../intelligence/DwIngest.js"
import { KeyedUsageRepo } from "../intelligence/Repo.js"
import { Insights } from "../insights/Insights.js"
import { InsightListQuery } from "../insights/Domain.js"
import { CoreLive, type Repositories } from "../Layers.js"
import { Organizations } from "../identity/Organizations.js"
import type { OrganizationId } from "../shared/Ids.js"
import { Attribution } from "../usage/AttributionService.js"
import { Month } from "../usage/Month.js"
import { generateExports, METERING_HEADER, toCsv, toJsonLines } from "../intelligence/ExportGenerator.js"
import { drainExport, freshOrganization, userActor } from "./Fixtures.js"
import { createGroup, createSet, equals, scanAll } from "./UsageContract.js"

const admin = userActor("admin@example.com")

/** Text in small chunks, to cross line and record boundaries. */
const chunked = (text: string) => () => Stream.fromIterable(text.match(/[\s\S]{1,4096}/g) ?? [])

const generated = generateExports({ days: 10, controls: 1 })
const meteringCsv = toCsv(METERING_HEADER, generated.metering())
const queriesJsonl = toJsonLines(generated.queries())

const sources = (metering = meteringCsv, queries = queriesJsonl): IngestSources<never> => ({
  metering: { format: "csv", open: chunked(metering) },
  queries: { format: "jsonl", open: chunked(queries) }
})

const ingest = (organizationId: OrganizationId, input = sources()) =>
  Effect.flatMap(DwIngest, (service) => service.run(admin, organizationId, input))

const allInsights = (organizationId: OrganizationId) =>
  Effect.flatMap(Insights, (insights) =>
    insights.list(organizationId, Schema.decodeUnknownSync(InsightListQuery)({ max_results: 100 }))).pipe(
      Effect.map((page) => page.items)
    )

const monthCredits = (organizationId: OrganizationId) =>
  Effect.map(scanAll(organizationId, "2024-03"), ({ records }) => ({
    count: records.length,
    credits: records.reduce((sum, record) => sum + record.credits, 0)
  }))

/** Ten days of exports per ingestion, on a machine that may be busy. */
const TIMEOUT = 120_000

const relative = (a: number, b: number) => Math.abs(a - b) / Math.max(1e-12, Math.abs(b))

export const dwIngestContract = (name: string, makeStore: () => Layer.Layer<Repositories, unknown>) => {
  addEqualityTesters()
  layer(CoreLive.pipe(Layer.provideMerge(makeStore())), { timeout: "120 seconds" })(`dw ingest: ${name}`, (it) => {
    it.effect("usage records sum to the metered credits, usage groups see them, insights are the planted ones", () =>
      Effect.gen(function*() {
        const organization = yield* freshOrganization
        const summary = yield* ingest(organization.id)
        expect(relative(summary.compute_credits, generated.computeCredits)).toBeLessThan(1e-6)
        expect(relative(summary.query_credits + summary.idle_credits, summary.compute_credits)).toBeLessThan(1e-6)
        expect(summary.insights_created).toBe(generated.planted.length)

        const stored = yield* monthCredits(organization.id)
        expect(stored.count).toBe(summary.usage_records)
        expect(relative(stored.credits, generated.computeCredits)).toBeLessThan(1e-9)

        const set = yield* createSet(organization.id, "Warehouses")
        yield* createGroup(organization.id, set.id, { name: "Idle", filter_expression: equals("warehouse_name", "IDLE_WH") })
        const report = yield* Effect.flatMap(Attribution, (a) => a.run(organization.id, set.id, Month.make("2024-03")))
        // IDLE_WH: 13 busy hours a day at 4 credits an hour.
        expect(report.groups[0]!.spent).toBeCloseTo(13 * 10 * 4, 6)

        const insights = yield* allInsights(organization.id)
        expect(insights.map((i) => [i.insight_type, i.resource_id]).sort()).toEqual(
          generated.planted.map((p) => [p.insight_type, p.resource_id]).sort()
        )
        const { records } = yield* drainExport(organization.id, { filters: { event_type_in: ["organization"] } })
        expect(records.map((r) => [r.table_name, r.operation, r.changed_by])).toEqual([["dw_ingestions", "update", "admin@example.com"]])
      }), TIMEOUT)

    it.effect("re-ingesting the same files changes nothing: no usage counted twice, no insight rewritten", () =>
      Effect.gen(function*() {
        const organization = yield* freshOrganization
        yield* ingest(organization.id)
        const before = yield* monthCredits(organization.id)
        const insightsBefore = yield* allInsights(organization.id)
        const again = yield* ingest(organization.id)
        expect(again).toMatchObject({ insights_created: 0, insights_updated: 0, insights_unchanged: generated.planted.length })
        const after = yield* monthCredits(organization.id)
        expect(after.count).toBe(before.count)
        expect(relative(after.credits, before.credits)).toBeLessThan(1e-12)
        const insightsAfter = yield* allInsights(organization.id)
        expect(insightsAfter.map((i) => [i.id, i.etag]).sort()).toEqual(insightsBefore.map((i) => [i.id, i.etag]).sort())
      }), TIMEOUT)

    it.effect("QUERY_ATTRIBUTION_HISTORY wins: each query is priced at its attributed credits, the rest of each hour is idle", () =>
      Effect.gen(function*() {
        const organization = yield* freshOrganization
        const ids = queriesJsonl.trimEnd().split("\n").map((line) => JSON.parse(line) as Record<string, unknown>)
          .filter((row) => row["WAREHOUSE_NAME"] !== null).map((row) => row["QUERY_ID"] as string)
        const attribution = `QUERY_ID,WAREHOUSE_NAME,START_TIME,END_TIME,CREDITS_ATTRIBUTED_COMPUTE\n${
          ids.map((id) => `${id},,,,0.001\n`).join("")
        }`
        const summary = yield* ingest(organization.id, { ...sources(), attribution: { format: "csv", open: chunked(attribution) } })
        expect(summary.queries).toBe(ids.length)
        expect(relative(summary.query_credits, 0.001 * ids.length)).toBeLessThan(1e-9)
        expect(relative(summary.query_credits + summary.idle_credits, generated.computeCredits)).toBeLessThan(1e-9)
      }), TIMEOUT)

    it.effect("a file with bad rows stores nothing and names every bad line", () =>
      Effect.gen(function*() {
        const organization = yield* freshOrganization
        const badMetering = meteringCsv.replace(/\n([^\n]*)\n/, "\n$1\nnot,a,valid,row,1,2,3\n")
        const badQueries = `${queriesJsonl}{"QUERY_ID": 1\n`
        const error = yield* Effect.flip(ingest(organization.id, sources(badMetering, badQueries)))
        expect(error._tag).toBe("ValidationFailed")
        expect(error.message).toMatch(/^2 invalid rows of \d+, nothing was ingested: WAREHOUSE_METERING_HISTORY line 3: /)
        expect(error._tag === "ValidationFailed" && error.details.map((d) => d.field)).toEqual([
          "metering line 3",
          `queries line ${queriesJsonl.split("\n").length}`
        ])
        expect((yield* monthCredits(organization.id)).count).toBe(0)
        expect(yield* allInsights(organization.id)).toEqual([])
      }), TIMEOUT)

    it.effect("a missing column is named; thresholds come from the organization's settings", () =>
      Effect.gen(function*() {
        const organization = yield* freshOrganization
        const noCompute = meteringCsv.replace("CREDITS_USED_COMPUTE,", "OTHER,")
        const error = yield* Effect.flip(ingest(organization.id, sources(noCompute)))
        expect(error.message).toContain("the header lacks the column CREDITS_USED_COMPUTE")

        yield* Effect.flatMap(Organizations, (o) =>
          o.updateSettings(admin, organization.id, { cost_intelligence: { idle_min_share: 0.95 } }))
        const summary = yield* ingest(organization.id)
        expect(summary.insights_created).toBe(generated.planted.length - 1)
        expect((yield* allInsights(organization.id)).map((i) => i.insight_type)).not.toContain("warehouse_idle")
      }), TIMEOUT)

    it.effect("a finding the next ingestion no longer makes is kept but not current; found again, it is current again", () =>
      Effect.gen(function*() {
        const organization = yield* freshOrganization
        const first = yield* ingest(organization.id)
        expect(first.insights_retired).toBe(0)
        const settings = (patch: Record<string, unknown>) =>
          Effect.flatMap(Organizations, (o) => o.updateSettings(admin, organization.id, { cost_intelligence: patch }))
        const currentOf = (type: string) =>
          Effect.map(allInsights(organization.id), (all) => all.filter((i) => i.insight_type === type).map((i) => i.is_current))

        yield* settings({ idle_min_share: 0.95 })
        const second = yield* ingest(organization.id)
        expect(second).toMatchObject({ insights_created: 0, insights_retired: 1, insights_unchanged: generated.planted.length - 1 })
        expect(yield* currentOf("warehouse_idle")).toEqual([false])
        const others = (yield* allInsights(organization.id)).filter((i) => i.insight_type !== "warehouse_idle")
        expect(others.every((i) => i.is_current)).toBe(true)
        // Nothing more to retire.
        expect((yield* ingest(organization.id)).insights_retired).toBe(0)

        yield* settings({ idle_min_share: 0.3 })
        const third = yield* ingest(organization.id)
        expect(third).toMatchObject({ insights_updated: 1, insights_retired: 0 })
        expect(yield* currentOf("warehouse_idle")).toEqual([true])
      }), TIMEOUT)

    it.effect("an ingestion of other warehouses retires nothing of these", () =>
      Effect.gen(function*() {
        const organization = yield* freshOrganization
        yield* ingest(organization.id)
        // The control warehouse's rows only: none of the planted problems' warehouses is in them.
        const [header, ...rows] = meteringCsv.trimEnd().split("\n")
        const controlMetering = [header, ...rows.filter((row) => row.includes("CTRL_01_WH"))].join("\n") + "\n"
        const controlQueries = queriesJsonl.trimEnd().split("\n").filter((row) => row.includes("CTRL_01_WH")).join("\n") + "\n"
        const summary = yield* ingest(organization.id, sources(controlMetering, controlQueries))
        expect(summary.queries).toBeGreaterThan(0)
        expect(summary.insights_retired).toBe(0)
        const all = yield* allInsights(organization.id)
        expect(all).toHaveLength(generated.planted.length)
        expect(all.every((i) => i.is_current)).toBe(true)
      }), TIMEOUT)
  })

  // The largest batch the ingest hands the store: what it holds in memory is bounded by this, not by the file.
  const batches = { largest: 0, rows: 0 }
  const spied = Layer.effect(
    KeyedUsageRepo,
    Effect.map(KeyedUsageRepo, (repo) =>
      KeyedUsageRepo.of({
        ...repo,
        stage: (organizationId, ingestionId, rows, now) => {
          batches.largest = Math.max(batches.largest, rows.length)
          batches.rows += rows.length
          return repo.stage(organizationId, ingestionId, rows, now)
        }
      }))
  )
  layer(CoreLive.pipe(Layer.provideMerge(spied.pipe(Layer.provideMerge(makeStore())))), { timeout: "120 seconds" })(
    `dw ingest, memory: ${name}`,
    (it) => {
      it.effect("usage records reach the store in batches of about BATCH_SIZE, however long the file", () =>
        Effect.gen(function*() {
          const organization = yield* freshOrganization
          const summary = yield* ingest(organization.id)
          expect(summary.usage_records).toBeGreaterThan(3 * BATCH_SIZE)
          expect(batches.rows).toBe(summary.usage_records)
          // A batch is flushed after the chunk of rows that filled it.
          expect(batches.largest).toBeLessThan(2 * BATCH_SIZE)
        }), TIMEOUT)
    }
  )
}
