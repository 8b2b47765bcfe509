/**
 * What listing and querying insights must return, computed in memory from the insights
 * themselves: the stores' SQL is checked against it on random data.
 */
import { DateTime, Order } from "effect"
import type { Audit, Insight } from "@costline/core"

type Value = string | number | boolean | null

const millis = (at: DateTime.Utc | null) => (at === null ? null : DateTime.toEpochMillis(at))

const atLeast = (value: number | null, bound: number | undefined) => bound === undefined || (value !== null && value >= bound)
const atMost = (value: number | null, bound: number | undefined) => bound === undefined || (value !== null && value <= bound)
const oneOf = <A>(value: A, values: ReadonlyArray<A> | undefined) => values === undefined || values.includes(value)
const equal = <A>(value: A, wanted: A | undefined) => wanted === undefined || value === wanted
const bound = (at: DateTime.Utc | undefined) => (at === undefined ? undefined : DateTime.toEpochMillis(at))

export const matches = (filters: Insight.InsightFilters) => (insight: Insight.Insight): boolean =>
  oneOf(insight.status, filters.status__in) &&
  oneOf(insight.assignee, filters.assignee__in) &&
  oneOf(insight.insight_type, filters.insight_type__in) &&
  oneOf(insight.first_viewed_by, filters.first_viewed_by__in) &&
  oneOf(insight.last_viewed_by, filters.last_viewed_by__in) &&
  equal(insight.is_current, filters.is_current) &&
  equal(insight.resource_type, filters.resource_type) &&
  equal(insight.dw_id, filters.dw_id) &&
  equal(insight.connection_id, filters.connection_id) &&
  atLeast(insight.view_count, filters.view_count__gte) &&
  atMost(insight.view_count, filters.view_count__lte) &&
  atLeast(millis(insight.first_viewed_at), bound(filters.first_viewed_at__gte)) &&
  atMost(millis(insight.first_viewed_at), bound(filters.first_viewed_at__lte)) &&
  atLeast(millis(insight.last_viewed_at), bound(filters.last_viewed_at__gte)) &&
  atMost(millis(insight.last_viewed_at), bound(filters.last_viewed_at__lte))

/** NULL is the smallest value; text compares by UTF-16 code units, as both stores do for ASCII. */
const compareValues = (a: Value, b: Value): number => {
  if (a === b) return 0
  if (a === null) return -1
  if (b === null) return 1
  return a < b ? -1 : 1
}

const directed = (order: Audit.SortOrder, comparison: number) => (order === "asc" ? comparison : -comparison)

/** The insights `GET /insights` returns, all pages together, in order. */
export const listed = (
  insights: ReadonlyArray<Insight.Insight>,
  query: { readonly filters: Insight.InsightFilters; readonly sortBy: Insight.InsightSortBy; readonly sortOrder: Audit.SortOrder }
): Array<Insight.Insight> =>
  insights.filter(matches(query.filters)).sort((a, b) =>
    directed(
      query.sortOrder,
      compareValues(millis(a[query.sortBy]), millis(b[query.sortBy])) || compareValues(a.id, b.id)
    )
  )

const dimensionOf = (insight: Insight.Insight, dimension: Insight.InsightDimension): Value => {
  switch (dimension) {
    case "create_day":
      return DateTime.formatIso(insight.create_time).slice(0, 10)
    case "create_month":
      return DateTime.formatIso(insight.create_time).slice(0, 7)
    default:
      return insight[dimension]
  }
}

const sum = (values: ReadonlyArray<number>) => values.reduce((total, value) => total + value, 0)

const measureOf = (group: ReadonlyArray<Insight.Insight>, measure: Insight.InsightMeasure): Value => {
  const savings = group.flatMap((insight) => (insight.potential_savings === null ? [] : [insight.potential_savings]))
  switch (measure) {
    case "count":
      return group.length
    case "potential_savings_sum":
      return savings.length === 0 ? null : sum(savings)
    case "potential_savings_avg":
      return savings.length === 0 ? null : sum(savings) / savings.length
    case "view_count_sum":
      return group.length === 0 ? null : sum(group.map((insight) => insight.view_count))
  }
}

/** The rows `POST /insights/actions/query` returns. */
export const aggregated = (insights: ReadonlyArray<Insight.Insight>, query: Insight.InsightQuery): Array<Insight.InsightQueryRow> => {
  const groups = new Map<string, Array<Insight.Insight>>()
  for (const insight of insights.filter(matches(query.filters))) {
    const key = JSON.stringify(query.dimensions.map((dimension) => dimensionOf(insight, dimension)))
    groups.set(key, [...(groups.get(key) ?? []), insight])
  }
  // Without dimensions there is one row, even over no insights (as SQL aggregates without GROUP BY).
  if (query.dimensions.length === 0 && groups.size === 0) groups.set("[]", [])
  const rows = [...groups.values()].map((group) =>
    Object.fromEntries([
      ...query.dimensions.map((dimension) => [dimension, dimensionOf(group[0]!, dimension)]),
      ...query.measures.map((measure) => [measure, measureOf(group, measure)])
    ]) as Record<string, Value>
  )
  const ordered = new Set(query.order_by.map((order) => order.field))
  const keys = [
    ...query.order_by,
    ...query.dimensions.filter((dimension) => !ordered.has(dimension)).map((field) => ({ field, direction: "asc" as const }))
  ]
  const byKeys = Order.make<Record<string, Value>>((a, b) => {
    for (const { direction, field } of keys) {
      const comparison = directed(direction, compareValues(a[field] ?? null, b[field] ?? null))
      if (comparison !== 0) return comparison < 0 ? -1 : 1
    }
    return 0
  })
  return rows.sort(byKeys).slice(0, query.limit)
}
