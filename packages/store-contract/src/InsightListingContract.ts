/**
 * Contract: listing insights (filters, sorts, keyset pages) and the aggregate query, each checked
 * against an in-memory oracle on random data as well as on chosen cases.
 */
import { describe, expect, type Vitest } from "@effect/vitest"
import { Effect, TestClock } from "effect"
import { InsightQueries, Insights } from "@costline/core"
import type { Audit, Ids, Insight } from "@costline/core"
import { type ContractServices, freshOrganization, ids } from "./Fixtures.js"
import { idleWarehouse, importer, withInsight } from "./InsightFixtures.js"
import * as Oracle from "./InsightOracle.js"
import { sampleListQueries, sampleQueries, seedRandomInsights } from "./InsightSamples.js"

/** Every page of a listing, following page tokens. */
const listAll = (
  organizationId: Ids.OrganizationId,
  query: {
    readonly filters: Insight.InsightFilters
    readonly sortBy: Insight.InsightSortBy
    readonly sortOrder: Audit.SortOrder
    readonly pageSize: number
  }
) =>
  Effect.gen(function*() {
    const insights = yield* Insights.Insights
    const items: Array<Insight.Insight> = []
    let pageToken: string | undefined
    for (;;) {
      const page = yield* insights.list(organizationId, {
        filters: query.filters,
        sort_by: query.sortBy,
        sort_order: query.sortOrder,
        max_results: query.pageSize,
        ...(pageToken === undefined ? {} : { page_token: pageToken })
      })
      items.push(...page.items)
      if (page.page_token === null) return items
      // A page that points further always holds a full page.
      expect(page.items).toHaveLength(query.pageSize)
      pageToken = page.page_token
    }
  })

export const insightListingContract = (it: Vitest.MethodsNonLive<ContractServices>) => {
  describe("insights: listing", () => {
    it.effect("newest first by default; pages of insights created in the same instant hold each one once", () =>
      Effect.gen(function*() {
        const insights = yield* Insights.Insights
        const organization = yield* freshOrganization
        const created: Array<Insight.Insight> = []
        for (const resourceId of ["a", "b", "c", "d", "e"]) {
          created.push((yield* insights.upsert(importer, organization.id, idleWarehouse(resourceId))).insight)
        }
        yield* TestClock.adjust("1 second")
        const newest = (yield* insights.upsert(importer, organization.id, idleWarehouse("f"))).insight
        const first = yield* insights.list(organization.id, {
          filters: {},
          sort_by: "create_time",
          sort_order: "desc",
          max_results: 2
        })
        expect(first.items[0]).toEqual(newest)
        const all = yield* listAll(organization.id, { filters: {}, sortBy: "create_time", sortOrder: "desc", pageSize: 2 })
        expect(ids(all)).toEqual([newest.id, ...ids(created).sort().reverse()])
      }))

    it.effect("every filter and sort matches an in-memory oracle on random data, page by page", () =>
      Effect.gen(function*() {
        const organization = yield* freshOrganization
        const stored = yield* seedRandomInsights(organization.id, 11)
        for (const query of sampleListQueries(40, 12)) {
          const listed = yield* listAll(organization.id, query)
          expect(ids(listed), JSON.stringify(query)).toEqual(ids(Oracle.listed(stored, query)))
        }
        // The samples reach both ends: some queries select nothing, some nearly everything.
        const sizes = sampleListQueries(40, 12).map((query) => Oracle.listed(stored, query).length)
        expect(Math.min(...sizes)).toBe(0)
        expect(Math.max(...sizes)).toBeGreaterThan(stored.length / 2)
      }))

    it.effect("paging is stable under inserts: nothing is repeated or skipped", () =>
      Effect.gen(function*() {
        const insights = yield* Insights.Insights
        const organization = yield* freshOrganization
        const before: Array<Insight.Insight> = []
        for (const resourceId of ["a", "b", "c", "d", "e", "f"]) {
          yield* TestClock.adjust("1 second")
          before.push((yield* insights.upsert(importer, organization.id, idleWarehouse(resourceId))).insight)
        }
        const seen: Array<Insight.Insight> = []
        let pageToken: string | undefined
        do {
          const page = yield* insights.list(organization.id, {
            filters: {},
            sort_by: "create_time",
            sort_order: "desc",
            max_results: 2,
            ...(pageToken === undefined ? {} : { page_token: pageToken })
          })
          seen.push(...page.items)
          // Newer insights arrive while the client pages through older ones.
          yield* TestClock.adjust("1 second")
          yield* insights.upsert(importer, organization.id, idleWarehouse(`new-${seen.length}`))
          pageToken = page.page_token ?? undefined
        } while (pageToken !== undefined)
        expect(ids(seen)).toEqual(ids(before).reverse())
      }))

    it.effect("a page token resumes only the same sort in the same organization; page sizes are 1 to 500", () =>
      Effect.gen(function*() {
        const insights = yield* Insights.Insights
        const { organizationId } = yield* withInsight
        yield* insights.upsert(importer, organizationId, idleWarehouse("WH_2"))
        const query = { filters: {}, sort_by: "create_time", sort_order: "desc", max_results: 1 } as const
        const token = (yield* insights.list(organizationId, query)).page_token!
        const other = yield* freshOrganization
        const attempts = [
          insights.list(other.id, { ...query, page_token: token }),
          insights.list(organizationId, { ...query, sort_order: "asc", page_token: token }),
          insights.list(organizationId, { ...query, sort_by: "update_time", page_token: token }),
          insights.list(organizationId, { ...query, page_token: `${token}x` })
        ]
        for (const attempt of attempts) expect((yield* Effect.flip(attempt))._tag).toBe("InvalidPageToken")
        expect((yield* insights.list(organizationId, { ...query, page_token: token })).items).toHaveLength(1)
        for (const max_results of [0, 501]) {
          expect((yield* Effect.flip(insights.list(organizationId, { ...query, max_results })))._tag).toBe("ValidationFailed")
        }
      }))
  })

  describe("insights: aggregate query", () => {
    it.effect("matches an in-memory oracle on random data and queries", () =>
      Effect.gen(function*() {
        const queries = yield* InsightQueries.InsightQueries
        const organization = yield* freshOrganization
        const stored = yield* seedRandomInsights(organization.id, 21)
        // Averages may differ in the last bits with the order of addition.
        const rounded = (rows: ReadonlyArray<Record<string, unknown>>) =>
          rows.map((row) =>
            typeof row["potential_savings_avg"] === "number"
              ? { ...row, potential_savings_avg: Math.round(row["potential_savings_avg"] * 1e6) / 1e6 }
              : row
          )
        for (const query of sampleQueries(60, 22)) {
          const result = yield* queries.run(organization.id, query)
          const expected = Oracle.aggregated(stored, query)
          expect(rounded(result.items), JSON.stringify(query)).toEqual(rounded(expected))
          expect(result.row_count).toBe(expected.length)
        }
      }))

    it.effect("without dimensions: one row over the organization's matching insights; sums over nothing are null", () =>
      Effect.gen(function*() {
        const queries = yield* InsightQueries.InsightQueries
        const insights = yield* Insights.Insights
        const organization = yield* freshOrganization
        const run = (filters: Insight.InsightFilters) =>
          queries.run(organization.id, {
            dimensions: [],
            measures: ["count", "potential_savings_sum", "potential_savings_avg", "view_count_sum"],
            filters,
            order_by: [],
            limit: 1000
          })
        expect(yield* run({})).toEqual({
          items: [{ count: 0, potential_savings_sum: null, potential_savings_avg: null, view_count_sum: null }],
          row_count: 1
        })
        yield* insights.upsert(importer, organization.id, idleWarehouse("a", { potential_savings: 10 }))
        yield* insights.upsert(importer, organization.id, idleWarehouse("b", { potential_savings: null }))
        yield* insights.upsert(importer, organization.id, idleWarehouse("c", { potential_savings: 20, dw_id: "dw-1" }))
        yield* withInsight // in another organization: never counted here
        expect((yield* run({})).items).toEqual([
          { count: 3, potential_savings_sum: 30, potential_savings_avg: 15, view_count_sum: 0 }
        ])
        expect((yield* run({ dw_id: "dw-1" })).items).toEqual([
          { count: 1, potential_savings_sum: 20, potential_savings_avg: 20, view_count_sum: 0 }
        ])
      }))

    it.effect("groups by UTC day and month, ordered by order_by and then the dimensions, cut at limit", () =>
      Effect.gen(function*() {
        const queries = yield* InsightQueries.InsightQueries
        const insights = yield* Insights.Insights
        const organization = yield* freshOrganization
        const createdAt = [
          ["a", "2024-01-31T23:30:00Z"],
          ["b", "2024-02-01T00:30:00Z"],
          ["c", "2024-02-01T10:00:00Z"],
          ["d", "2024-02-03T00:00:00Z"]
        ] as const
        for (const [resourceId, at] of createdAt) {
          yield* TestClock.setTime(Date.parse(at))
          yield* insights.upsert(importer, organization.id, idleWarehouse(resourceId))
        }
        const countBy = { dimensions: [], measures: ["count"], filters: {}, order_by: [], limit: 1000 } as const
        const run = (query: Partial<Parameters<typeof queries.run>[1]>) =>
          Effect.map(queries.run(organization.id, { ...countBy, ...query }), ({ items }) => items)
        expect(yield* run({ dimensions: ["create_month"] })).toEqual([
          { create_month: "2024-01", count: 1 },
          { create_month: "2024-02", count: 3 }
        ])
        expect(yield* run({ dimensions: ["create_day"], order_by: [{ field: "count", direction: "desc" }], limit: 2 })).toEqual([
          { create_day: "2024-02-01", count: 2 },
          { create_day: "2024-01-31", count: 1 }
        ])
      }))
  })
}
