/**
 * Random insights for the contract: upserted at random times, then triaged and viewed at random,
 * drawn from small pools so that filters and groups meet several insights. Deterministic per seed.
 */
import { DateTime, Effect, FastCheck as fc, Schema, TestClock } from "effect"
import { randomUUID } from "node:crypto"
import { Insight, Insights, Precondition } from "@costline/core"
import type { Identity, Ids } from "@costline/core"
import { userActor } from "./Fixtures.js"

export const PEOPLE = ["ann@example.com", "bob@example.com", "cy@example.com"] as const
const TYPES = ["warehouse_idle", "select_star", "query_remote_spill", "unused_table"] as const
const RESOURCE_TYPES = ["warehouse", "query", "table"] as const
const DW_IDS = [null, "dw-1", "dw-2"] as const
const CONNECTION_IDS = [null, "conn-a"] as const
const START = Date.parse("2024-01-30T18:00:00Z")
const HOUR = 3_600_000

/** A signed-in user, as `Insights.recordView` sees one. */
export const userPrincipal = (organizationId: Ids.OrganizationId, email: string): Identity.Principal => ({
  _tag: "User",
  organizationId,
  userId: randomUUID() as Ids.UserId,
  email,
  sessionId: randomUUID() as Ids.SessionId,
  roles: ["editor"]
})

const sampleUpsert = fc.record({
  insight_type: fc.constantFrom(...TYPES),
  resource_type: fc.constantFrom(...RESOURCE_TYPES),
  resource_id: fc.stringMatching(/^[a-z]{1,3}$/),
  title: fc.constant("Sample"),
  description: fc.constant(""),
  severity: fc.constantFrom(...Insight.Severity.literals),
  is_current: fc.boolean(),
  dw_id: fc.constantFrom(...DW_IDS),
  connection_id: fc.constantFrom(...CONNECTION_IDS),
  // Whole credits: sums are then exact on every store, whatever the order of addition.
  potential_savings: fc.option(fc.integer({ min: 0, max: 500 }), { nil: null })
})

/** What happens to an insight after it was created, at increasing times. */
const sampleEvent = fc.oneof(
  fc.record({
    kind: fc.constant("update" as const),
    status: fc.constantFrom(...Insight.InsightStatus.literals),
    assignee: fc.constantFrom(null, ...PEOPLE)
  }),
  fc.record({ kind: fc.constant("view" as const), viewer: fc.constantFrom(...PEOPLE) })
)

const sampleDataset = fc.record({
  upserts: fc.array(fc.tuple(sampleUpsert, fc.integer({ min: 0, max: 72 })), { minLength: 20, maxLength: 40 }),
  events: fc.array(fc.tuple(fc.nat(), sampleEvent, fc.integer({ min: 1, max: 30 })), { maxLength: 40 })
})

/**
 * Fills the organization with a random dataset and returns its insights as stored. Creation times
 * spread over four days across a month end; several insights share one instant.
 */
export const seedRandomInsights = (organizationId: Ids.OrganizationId, seed: number) =>
  Effect.gen(function*() {
    const insights = yield* Insights.Insights
    const [dataset] = fc.sample(sampleDataset, { numRuns: 1, seed })
    const ids: Array<Insight.Insight["id"]> = []
    for (const [input, hour] of [...dataset!.upserts].sort((a, b) => a[1] - b[1])) {
      yield* TestClock.setTime(START + hour * HOUR)
      const result = yield* insights.upsert(userActor("importer@example.com"), organizationId, new Insight.InsightUpsert(input))
      ids.push(result.insight.id)
    }
    for (const [pick, event, minutes] of dataset!.events) {
      yield* TestClock.adjust(`${minutes} minutes`)
      const id = ids[pick % ids.length]!
      if (event.kind === "view") {
        yield* insights.recordView(userPrincipal(organizationId, event.viewer), organizationId, id)
      } else {
        const patch = new Insight.InsightUpdate({ status: event.status, assignee: event.assignee })
        // Moves outside the transition table are refused; the dataset just keeps the old status.
        yield* insights.update(userActor(PEOPLE[0]), organizationId, id, patch, Precondition.any).pipe(
          Effect.catchTag("InvalidTransition", () => Effect.void)
        )
      }
    }
    return yield* Effect.forEach([...new Set(ids)], (id) => insights.get(organizationId, id))
  })

const instant = fc.integer({ min: START, max: START + 80 * HOUR }).map((ms) => DateTime.formatIso(DateTime.unsafeMake(ms)))

const filterValues = fc.record({
  status__in: fc.uniqueArray(fc.constantFrom(...Insight.InsightStatus.literals), { minLength: 1, maxLength: 2 }),
  assignee__in: fc.uniqueArray(fc.constantFrom(...PEOPLE), { minLength: 1, maxLength: 2 }),
  insight_type__in: fc.uniqueArray(fc.constantFrom(...TYPES), { minLength: 1, maxLength: 2 }),
  first_viewed_by__in: fc.uniqueArray(fc.constantFrom(...PEOPLE), { minLength: 1, maxLength: 2 }),
  last_viewed_by__in: fc.uniqueArray(fc.constantFrom(...PEOPLE), { minLength: 1, maxLength: 2 }),
  is_current: fc.boolean(),
  resource_type: fc.constantFrom(...RESOURCE_TYPES),
  dw_id: fc.constantFrom("dw-1", "dw-2"),
  connection_id: fc.constant("conn-a"),
  view_count__gte: fc.integer({ min: 0, max: 3 }),
  view_count__lte: fc.integer({ min: 0, max: 3 }),
  first_viewed_at__gte: instant,
  first_viewed_at__lte: instant,
  last_viewed_at__gte: instant,
  last_viewed_at__lte: instant
})

/** Up to two random filters, in their JSON form: more would rarely leave anything to return. */
const sampleFilters = fc.tuple(filterValues, fc.subarray(Object.keys(Insight.InsightFilters.fields), { maxLength: 2 })).map(
  ([values, keys]) => Object.fromEntries(keys.map((key) => [key, values[key as keyof typeof values]]))
)

export const sampleListQueries = (count: number, seed: number) =>
  fc.sample(
    fc.record({
      filters: sampleFilters.map(Schema.decodeUnknownSync(Insight.InsightFilters)),
      sortBy: fc.constantFrom("create_time" as const, "update_time" as const),
      sortOrder: fc.constantFrom("asc" as const, "desc" as const),
      pageSize: fc.integer({ min: 1, max: 7 })
    }),
    { numRuns: count, seed }
  )

const sampleQuery = fc.record({
  dimensions: fc.uniqueArray(fc.constantFrom(...Insight.InsightDimension.literals), { maxLength: 3 }),
  measures: fc.uniqueArray(fc.constantFrom(...Insight.InsightMeasure.literals), { maxLength: 4 }),
  filters: sampleFilters,
  directions: fc.array(fc.constantFrom("asc", "desc"), { minLength: 7, maxLength: 7 }),
  ordered: fc.nat({ max: 3 }),
  limit: fc.integer({ min: 1, max: 25 })
}).filter((query) => query.dimensions.length + query.measures.length > 0).map((query) => {
  const fields = [...query.measures, ...query.dimensions].slice(0, query.ordered)
  return Schema.decodeUnknownSync(Insight.InsightQuery)({
    dimensions: query.dimensions,
    measures: query.measures,
    filters: query.filters,
    order_by: fields.map((field, index) => ({ field, direction: query.directions[index] })),
    limit: query.limit
  })
})

export const sampleQueries = (count: number, seed: number): Array<Insight.InsightQuery> =>
  fc.sample(sampleQuery, { numRuns: count, seed })
