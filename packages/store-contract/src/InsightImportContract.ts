/**
 * Contract: staged insight imports (core's InsightImport over the store's InsightImportsRepo).
 * An import is the file's upserts applied in order, all at once or not at all, staged in short
 * transactions no reader sees, and it never overwrites a change made through the API meanwhile.
 */
import { describe, expect, type Vitest } from "@effect/vitest"
import { Effect, Either, Stream } from "effect"
import { Insight, InsightETag, InsightImport, InsightImportsRepo, Insights, UsageImport } from "@costline/core"
import type { Ids } from "@costline/core"
import { type ContractServices, freshOrganization, ifMatch } from "./Fixtures.js"
import { ann, idleWarehouse, importer, insightRecords } from "./InsightFixtures.js"

const lines = (upserts: ReadonlyArray<Insight.InsightUpsert>) => Stream.fromIterable(upserts.map((upsert) => Either.right(upsert)))

/** Every insight of the organization, oldest first, following page tokens. */
const allInsights = (organizationId: Ids.OrganizationId) =>
  Effect.gen(function*() {
    const insights = yield* Insights.Insights
    const found: Array<Insight.Insight> = []
    let token: string | undefined
    do {
      const page = yield* insights.list(organizationId, {
        filters: {},
        sort_by: "create_time",
        sort_order: "asc",
        max_results: 500,
        ...(token === undefined ? {} : { page_token: token })
      })
      found.push(...page.items)
      token = page.page_token ?? undefined
    } while (token !== undefined)
    return found
  })

const many = (count: number, prefix = "WH") => Array.from({ length: count }, (_, i) => idleWarehouse(`${prefix}_${i}`))

export const insightImportContract = (it: Vitest.MethodsNonLive<ContractServices>) =>
  describe("insight imports", () => {
    it.effect("applies the file's lines in order: creations, changes, repeats; an audit record per change", () =>
      Effect.gen(function*() {
        const organization = yield* freshOrganization
        const insights = yield* Insights.Insights
        const existing = (yield* insights.upsert(importer, organization.id, idleWarehouse("WH_OLD"))).insight
        const file = [
          idleWarehouse("WH_OLD", { potential_savings: 7 }),
          idleWarehouse("WH_NEW"),
          idleWarehouse("WH_NEW", { severity: "high" }),
          idleWarehouse("WH_NEW", { severity: "high" })
        ]
        const summary = yield* (yield* InsightImport.InsightImport).run(organization.id, lines(file))
        expect(summary).toEqual({ created: 1, updated: 2, unchanged: 1 })

        const stored = (yield* allInsights(organization.id)).sort((a, b) => a.resource_id.localeCompare(b.resource_id))
        expect(stored.map((insight) => [insight.resource_id, insight.potential_savings, insight.severity])).toEqual([
          ["WH_NEW", 120, "high"],
          ["WH_OLD", 7, "medium"]
        ])
        expect(stored[1]!.id).toBe(existing.id)
        const audit = (yield* insightRecords(organization.id)).slice(1)
        expect(audit.map((record) => [record.operation, record.record_id, record.new_values, record.changed_by])).toEqual([
          // Whole states (docs/concepts.md#what-a-record-holds): what the line changed, and the rest.
          ["update", existing.id, expect.objectContaining({ potential_savings: 7, severity: "medium" }), "system"],
          ["create", stored[0]!.id, expect.objectContaining({ severity: "medium", status: "open" }), "system"],
          ["update", stored[0]!.id, expect.objectContaining({ severity: "high", potential_savings: 120 }), "system"]
        ])
      }))

    it.effect("stages in batches nobody sees until the last step publishes them all", () =>
      Effect.gen(function*() {
        const organization = yield* freshOrganization
        const file = many(2 * UsageImport.BATCH_SIZE + 1)
        const insights = yield* Insights.Insights
        const staged: Array<number> = []
        const seenWhileStaging: Array<number> = []
        const watched = Effect.map(InsightImportsRepo.InsightImportsRepo, (repo) =>
          InsightImportsRepo.InsightImportsRepo.of({
            ...repo,
            stage: (organizationId, importId, batch, audit, now) =>
              Effect.gen(function*() {
                const seen = yield* Effect.orDie(Effect.provideService(allInsights(organization.id), Insights.Insights, insights))
                seenWhileStaging.push(seen.length)
                staged.push(batch.length)
                yield* repo.stage(organizationId, importId, batch, audit, now)
              })
          }))
        const importing = yield* Effect.provideServiceEffect(InsightImport.make, InsightImportsRepo.InsightImportsRepo, watched)
        expect(yield* importing.run(organization.id, lines(file))).toEqual({
          created: file.length,
          updated: 0,
          unchanged: 0
        })
        expect(staged).toEqual([UsageImport.BATCH_SIZE, UsageImport.BATCH_SIZE, 1])
        expect(seenWhileStaging).toEqual([0, 0, 0])
        expect(yield* allInsights(organization.id)).toHaveLength(file.length)
        expect(yield* insightRecords(organization.id)).toHaveLength(file.length)
      }), { timeout: 120_000 })

    it.effect("a bad line after batches were staged leaves nothing: no insight, no record, nothing staged; the rest is still read", () =>
      Effect.gen(function*() {
        const organization = yield* freshOrganization
        const good = many(2 * UsageImport.BATCH_SIZE + 5).map((upsert) => Either.right(upsert))
        const after = many(UsageImport.BATCH_SIZE + 1, "AFTER").map((upsert) => Either.right(upsert))
        let read = 0
        const file = Stream.fromIterable([...good, Either.left("not valid JSON"), ...after]).pipe(
          Stream.tap(() => Effect.sync(() => read++))
        )
        const failure = yield* Effect.flip((yield* InsightImport.InsightImport).run(organization.id, file))
        expect(failure).toMatchObject({ _tag: "ValidationFailed", details: [{ field: "file", issue: "bad_lines" }] })
        // Read to the end (its reader names every bad line), in one pass.
        expect(read).toBe(good.length + 1 + after.length)
        expect(yield* allInsights(organization.id)).toEqual([])
        expect(yield* insightRecords(organization.id)).toEqual([])
        // Discarded, not merely hidden: the import is gone and nothing of it can be read back.
        expect(yield* (yield* InsightImportsRepo.InsightImportsRepo).staleImports(new Date("2999-01-01T00:00:00Z"))).toEqual([])
      }), { timeout: 120_000 })

    it.effect("an insight changed through the API while the import was staged keeps that change", () =>
      Effect.gen(function*() {
        const organization = yield* freshOrganization
        const insights = yield* Insights.Insights
        const before = (yield* insights.upsert(importer, organization.id, idleWarehouse("WH_EDITED"))).insight
        const file = [idleWarehouse("WH_EDITED", { potential_savings: 9 }), idleWarehouse("WH_RACED")]
        // Both land between the import's read and its publishing: a triage, and a creation of a key it creates too.
        const watched = Effect.map(InsightImportsRepo.InsightImportsRepo, (repo) =>
          InsightImportsRepo.InsightImportsRepo.of({
            ...repo,
            stage: (organizationId, importId, staged, audit, now) =>
              Effect.gen(function*() {
                yield* repo.stage(organizationId, importId, staged, audit, now)
                yield* Effect.orDie(insights.update(ann, organization.id, before.id, new Insight.InsightUpdate({ status: "in_progress" }), ifMatch(before.etag)))
                yield* Effect.orDie(insights.upsert(importer, organization.id, idleWarehouse("WH_RACED", { title: "raced" })))
              })
          }))
        const importing = yield* Effect.provideServiceEffect(InsightImport.make, InsightImportsRepo.InsightImportsRepo, watched)
        expect(yield* importing.run(organization.id, lines(file))).toEqual({ created: 0, updated: 2, unchanged: 0 })

        const stored = yield* allInsights(organization.id)
        const edited = stored.find((insight) => insight.resource_id === "WH_EDITED")!
        expect(edited).toMatchObject({ id: before.id, status: "in_progress", potential_savings: 9 })
        const raced = stored.filter((insight) => insight.resource_id === "WH_RACED")
        expect(raced).toHaveLength(1)
        expect(raced[0]!.title).toBe("Warehouse WH_RACED is idle")
        // Its ETag is that of what is stored: the API's change and the import's content.
        expect(edited.etag).toBe(InsightETag.forInsight(edited))
        const imported = (yield* insightRecords(organization.id)).filter((record) => record.changed_by === "system")
        expect(imported.map((record) => [record.operation, record.new_values])).toEqual([
          // The API's triage is in the state the import's record shows.
          ["update", expect.objectContaining({ potential_savings: 9, status: "in_progress" })],
          ["update", expect.objectContaining({ title: "Warehouse WH_RACED is idle" })]
        ])
      }))
  })
