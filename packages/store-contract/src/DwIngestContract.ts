/**
 * Contract: ingesting account-usage exports on a real store. Usage records land where usage
 * groups and budgets read them and sum to the metered credits; insights are the planted ones;
 * re-ingesting changes nothing; a bad file stores nothing.
 */
import { addEqualityTesters, expect, layer } from "@effect/vitest"
import { Clock, Duration, Effect, Layer, Schema, Stream, TestClock } from "effect"
import { Attribution, Core, DwExportGenerator, DwIngest, Insight, Insights, KeyedUsageRepo, Organizations, UsageImport, UsageMonth, UsageRepo } from "@costline/core"
import type { Ids } from "@costline/core"
import { drainExport, freshOrganization, userActor } from "./Fixtures.js"
import { createGroup, createSet, equals, scanAll } from "./UsageFixtures.js"

const admin = userActor("admin@example.com")

/** Text in small chunks, to cross line and record boundaries. */
const chunked = (text: string) => () => Stream.fromIterable(text.match(/[\s\S]{1,4096}/g) ?? [])

const { generateExports, METERING_HEADER, toCsv, toJsonLines } = DwExportGenerator
const generated = generateExports({ days: 10, controls: 1 })
const meteringCsv = toCsv(METERING_HEADER, generated.metering())
const queriesJsonl = toJsonLines(generated.queries())

const sources = (metering = meteringCsv, queries = queriesJsonl): DwIngest.IngestSources<never> => ({
  metering: { format: "csv", open: chunked(metering) },
  queries: { format: "jsonl", open: chunked(queries) }
})

const ingest = (organizationId: Ids.OrganizationId, input = sources()) =>
  Effect.flatMap(DwIngest.DwIngest, (service) => service.run(admin, organizationId, input))

const allInsights = (organizationId: Ids.OrganizationId) =>
  Effect.flatMap(Insights.Insights, (insights) =>
    insights.list(organizationId, Schema.decodeUnknownSync(Insight.InsightListQuery)({ max_results: 100 }))).pipe(
      Effect.map((page) => page.items)
    )

const monthCredits = (organizationId: Ids.OrganizationId) =>
  Effect.map(scanAll(organizationId, "2024-03"), ({ records }) => ({
    count: records.length,
    credits: records.reduce((sum, record) => sum + record.credits, 0)
  }))

/** Ten days of exports per ingestion, on a machine that may be busy. */
const TIMEOUT = 120_000

/** The QUERY_IDs of the queries that ran on a warehouse. */
const queryIds = () =>
  queriesJsonl.trimEnd().split("\n").map((line) => JSON.parse(line) as Record<string, unknown>)
    .filter((row) => row["WAREHOUSE_NAME"] !== null).map((row) => row["QUERY_ID"] as string)

const relative = (a: number, b: number) => Math.abs(a - b) / Math.max(1e-12, Math.abs(b))

/**
 * Turns of the event loop (macrotasks) while the queries are validated, as `onProgress` sees them:
 * text already in memory never waits for I/O, so only the ingestion's own pauses can give the loop
 * a turn. `stop` ends the counting; `duringQueries` is the count the queries' progress last saw.
 */
const eventLoopTurns = () => {
  let turns = 0
  let counting = false
  let duringQueries: number | undefined
  const tick = () => {
    if (!counting) return
    turns++
    setImmediate(tick)
  }
  return {
    onProgress: (progress: DwIngest.IngestProgress) =>
      Effect.sync(() => {
        if (progress.phase !== "validate") return
        if (progress.file === "metering" && !counting) {
          counting = true
          setImmediate(tick)
        }
        if (progress.file === "queries") duringQueries = turns
      }),
    stop: () => {
      counting = false
    },
    duringQueries: () => duringQueries
  }
}

export const dwIngestContract = (name: string, makeStore: () => Layer.Layer<Core.Repositories, unknown>) => {
  addEqualityTesters()
  layer(Core.layer.pipe(Layer.provideMerge(makeStore())), { timeout: "120 seconds" })(`dw ingest: ${name}`, (it) => {
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
        const report = yield* Effect.flatMap(Attribution.Attribution, (a) => a.run(organization.id, set.id, UsageMonth.Month.make("2024-03")))
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

    it.effect("validating a long file gives the event loop turns: other requests are not held meanwhile", () =>
      Effect.gen(function*() {
        const organization = yield* freshOrganization
        const turns = eventLoopTurns()
        // Several thousand rows (many times one slice of work), then a bad row: all validated, nothing written.
        const long = `${queriesJsonl.repeat(4)}{"QUERY_ID": 1\n`
        const error = yield* Effect.flip(Effect.flatMap(DwIngest.DwIngest, (service) =>
          service.run(admin, organization.id, sources(meteringCsv, long), { onProgress: turns.onProgress })))
        turns.stop()
        expect(error._tag).toBe("ValidationFailed")
        expect(turns.duringQueries()).toBeGreaterThan(0)
      }), TIMEOUT)

    it.effect("a file handed over whole is read in slices too: long rows, fewer than a batch of them", () =>
      Effect.gen(function*() {
        const organization = yield* freshOrganization
        const turns = eventLoopTurns()
        // 900 rows of 20,000 characters each (18 MB), as one string: fewer rows than one batch,
        // so only pauses between pieces of text can give the loop a turn before the last row.
        const first = JSON.parse(queriesJsonl.split("\n")[0]!) as Record<string, unknown>
        const row = (n: number) => JSON.stringify({ ...first, QUERY_ID: `long-${n}`, QUERY_TEXT: `select '${"x".repeat(20_000)}'` })
        const long = `${Array.from({ length: 900 }, (_, n) => row(n)).join("\n")}\n{"QUERY_ID": 1\n`
        expect(long.length).toBeGreaterThan(18_000_000)
        const error = yield* Effect.flip(Effect.flatMap(DwIngest.DwIngest, (service) =>
          service.run(admin, organization.id, {
            metering: { format: "csv", open: chunked(meteringCsv) },
            queries: { format: "jsonl", open: () => Stream.make(long) }
          }, { onProgress: turns.onProgress })))
        turns.stop()
        expect(error._tag === "ValidationFailed" && error.details.map((d) => d.field)).toEqual(["queries line 901"])
        // Read in one go, the whole text would be parsed before the only chunk of rows, then one pause at most.
        expect(turns.duringQueries()).toBeGreaterThan(1)
      }), TIMEOUT)

    it.effect("a missing column is named; thresholds come from the organization's settings", () =>
      Effect.gen(function*() {
        const organization = yield* freshOrganization
        const noCompute = meteringCsv.replace("CREDITS_USED_COMPUTE,", "OTHER,")
        const error = yield* Effect.flip(ingest(organization.id, sources(noCompute)))
        expect(error.message).toContain("the header lacks the column CREDITS_USED_COMPUTE")

        yield* Effect.flatMap(Organizations.Organizations, (o) =>
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
          Effect.flatMap(Organizations.Organizations, (o) => o.updateSettings(admin, organization.id, { cost_intelligence: patch }))
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

  layer(Core.layer.pipe(Layer.provideMerge(makeStore())), { timeout: "120 seconds" })(`dw ingest, staged: ${name}`, (it) => {
    /** The queries; on the write pass only the first `lines` of them, then a failure. */
    const failingOnWrite = (lines: number): DwIngest.IngestSources<string> => {
      let opened = 0
      return {
        metering: { format: "csv", open: chunked(meteringCsv) },
        queries: {
          format: "jsonl",
          open: () => {
            opened++
            if (opened === 1) return chunked(queriesJsonl)()
            const head = queriesJsonl.split("\n").slice(0, lines).join("\n") + "\n"
            return Stream.concat(chunked(head)(), Stream.fail("disk unplugged"))
          }
        }
      }
    }

    const state = (organizationId: Ids.OrganizationId) =>
      Effect.gen(function*() {
        const usage = yield* monthCredits(organizationId)
        const insights = (yield* allInsights(organizationId)).map((i) => [i.insight_type, i.resource_id, i.etag]).sort()
        const { records } = yield* drainExport(organizationId, { filters: { event_type_in: ["organization"] } })
        return { usage, insights, audit: records.length }
      })

    it.effect("a failure after batches were staged publishes nothing: the earlier records, insights and audit stay; the next run works", () =>
      Effect.gen(function*() {
        const organization = yield* freshOrganization
        yield* ingest(organization.id)
        const before = yield* state(organization.id)
        yield* Effect.flatMap(Organizations.Organizations, (o) => o.updateSettings(admin, organization.id, { cost_intelligence: { idle_min_share: 0.95 } }))

        // Half-way through the queries: several batches were staged.
        const half = Math.floor(queriesJsonl.split("\n").length / 2)
        const error = yield* Effect.flip(Effect.flatMap(DwIngest.DwIngest, (service) => service.run(admin, organization.id, failingOnWrite(half))))
        expect(error).toBe("disk unplugged")
        // Half of the queries is more than two batches.
        expect(queryIds().length / 2).toBeGreaterThan(2 * DwIngest.BATCH_SIZE)
        const after = yield* state(organization.id)
        expect(after.usage.count).toBe(before.usage.count)
        expect(relative(after.usage.credits, before.usage.credits)).toBeLessThan(1e-12)
        expect(after.insights).toEqual(before.insights)
        // The settings change is audited; no ingestion is.
        expect(after.audit).toBe(before.audit + 1)

        // Nothing left pending: the next ingestion runs (and retires the idle insight the settings now exclude).
        const again = yield* ingest(organization.id)
        expect(again.insights_retired).toBe(1)
        const final = yield* monthCredits(organization.id)
        expect(final.count).toBe(before.usage.count)
        expect(relative(final.credits, before.usage.credits)).toBeLessThan(1e-9)
      }), TIMEOUT)

    it.effect("an ingestion left pending by a dead process: invisible, replaced records still seen, others refused until it is stale, then discarded", () =>
      Effect.gen(function*() {
        const organization = yield* freshOrganization
        const first = yield* ingest(organization.id)
        const before = yield* monthCredits(organization.id)
        const keyed = yield* KeyedUsageRepo.KeyedUsageRepo
        // A process that staged replacements of 500 query records (at 1000 credits each), then died.
        yield* keyed.begin(organization.id, "dead-ingestion", new Date(yield* Clock.currentTimeMillis))
        const replacements = queryIds().slice(0, 500).map((id) => ({
          key: `query:${id}`,
          record: { start_time: new Date("2024-03-05T10:00:00Z"), credits: 1000, warehouse_name: "CTRL_01_WH" }
        }))
        expect(replacements.length).toBe(500)
        yield* keyed.stage(organization.id, "dead-ingestion", replacements, new Date(yield* Clock.currentTimeMillis))
        const during = yield* monthCredits(organization.id)
        expect(during.count).toBe(before.count)
        expect(relative(during.credits, before.credits)).toBeLessThan(1e-12)

        const refused = yield* Effect.flip(ingest(organization.id))
        expect(refused._tag).toBe("Conflict")
        expect(refused.message).toContain("another ingestion of this organization")

        yield* TestClock.adjust(Duration.sum(UsageImport.STALE_AFTER, Duration.seconds(1)))
        const again = yield* ingest(organization.id)
        expect(again.usage_records).toBe(first.usage_records)
        const after = yield* monthCredits(organization.id)
        expect(after.count).toBe(before.count)
        expect(relative(after.credits, before.credits)).toBeLessThan(1e-9)
      }), TIMEOUT)

    it.effect("re-ingesting replaces while it stages: readers see the earlier records until the new ones are published, then only those", () =>
      Effect.gen(function*() {
        const organization = yield* freshOrganization
        yield* ingest(organization.id)
        const before = yield* monthCredits(organization.id)
        // Every query of the second run costs 0.001 credits: published, the month's total changes.
        const ids = queryIds()
        const attribution = `QUERY_ID,WAREHOUSE_NAME,START_TIME,END_TIME,CREDITS_ATTRIBUTED_COMPUTE\n${ids.map((id) => `${id},,,,0.001\n`).join("")}`
        const seen: Array<{ count: number; credits: number }> = []
        // After each staged batch, what a reader sees.
        const watched = Layer.effect(
          KeyedUsageRepo.KeyedUsageRepo,
          Effect.gen(function*() {
            const repo = yield* KeyedUsageRepo.KeyedUsageRepo
            const context = yield* Effect.context<UsageRepo.UsageRecordsRepo>()
            return KeyedUsageRepo.KeyedUsageRepo.of({
              ...repo,
              stage: (organizationId, ingestionId, rows, now) =>
                Effect.zipRight(
                  repo.stage(organizationId, ingestionId, rows, now),
                  monthCredits(organization.id).pipe(
                    Effect.tap((visible) => Effect.sync(() => seen.push(visible))),
                    Effect.asVoid,
                    Effect.provide(context)
                  )
                )
            })
          })
        )
        const summary = yield* Effect.flatMap(DwIngest.DwIngest, (service) =>
          service.run(admin, organization.id, { ...sources(), attribution: { format: "csv", open: chunked(attribution) } })).pipe(
          Effect.provide(DwIngest.layer.pipe(Layer.provide(watched)))
        )
        expect(seen.length).toBeGreaterThan(3)
        for (const visible of seen) {
          expect(visible.count).toBe(before.count)
          expect(relative(visible.credits, before.credits)).toBeLessThan(1e-9)
        }
        const after = yield* monthCredits(organization.id)
        expect(after.count).toBe(summary.usage_records)
        expect(after.count).toBe(before.count)
        expect(relative(after.credits, summary.compute_credits)).toBeLessThan(1e-6)
        expect(relative(summary.query_credits, 0.001 * ids.length)).toBeLessThan(1e-9)
      }), TIMEOUT)
  })

  // The largest batch the ingest hands the store: what it holds in memory is bounded by this, not by the file.
  const batches = { largest: 0, rows: 0 }
  const spied = Layer.effect(
    KeyedUsageRepo.KeyedUsageRepo,
    Effect.map(KeyedUsageRepo.KeyedUsageRepo, (repo) =>
      KeyedUsageRepo.KeyedUsageRepo.of({
        ...repo,
        stage: (organizationId, ingestionId, rows, now) => {
          batches.largest = Math.max(batches.largest, rows.length)
          batches.rows += rows.length
          return repo.stage(organizationId, ingestionId, rows, now)
        }
      }))
  )
  layer(Core.layer.pipe(Layer.provideMerge(spied.pipe(Layer.provideMerge(makeStore())))), { timeout: "120 seconds" })(
    `dw ingest, memory: ${name}`,
    (it) => {
      it.effect("usage records reach the store in batches of about BATCH_SIZE, however long the file", () =>
        Effect.gen(function*() {
          const organization = yield* freshOrganization
          const summary = yield* ingest(organization.id)
          expect(summary.usage_records).toBeGreaterThan(3 * DwIngest.BATCH_SIZE)
          expect(batches.rows).toBe(summary.usage_records)
          // A batch is flushed after the chunk of rows that filled it.
          expect(batches.largest).toBeLessThan(2 * DwIngest.BATCH_SIZE)
        }), TIMEOUT)
    }
  )
}
