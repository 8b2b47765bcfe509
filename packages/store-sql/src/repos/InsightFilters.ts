/**
 * The filters of `GET /insights` (and of `InsightQuery.filters`) as SQL conditions, identical on
 * both dialects. Every present filter must hold; a bound on a time that is still null (never
 * viewed) does not hold.
 */
import type { Insight } from "@costline/core"
import type { SqlClient } from "@effect/sql/SqlClient"
import type { Fragment } from "@effect/sql/Statement"
import type { DateTime } from "effect"
import { isoText } from "../Columns.js"
import type { SqlValue } from "../SqlDialect.js"

export const insightFilterConditions = (
  sql: SqlClient,
  boolean: (value: boolean) => SqlValue,
  filters: Insight.InsightFilters
): Array<Fragment> => {
  const conditions: Array<Fragment> = []
  const within = (column: string, values: ReadonlyArray<string> | undefined) => {
    if (values !== undefined) conditions.push(sql`${sql(column)} IN ${sql.in(values)}`)
  }
  const equal = (column: string, value: SqlValue | undefined) => {
    if (value !== undefined) conditions.push(sql`${sql(column)} = ${value}`)
  }
  const bound = (column: string, operator: ">=" | "<=", value: SqlValue | undefined) => {
    if (value !== undefined) conditions.push(sql`${sql(column)} ${sql.literal(operator)} ${value}`)
  }
  const time = (value: DateTime.Utc | undefined) => (value === undefined ? undefined : isoText(value))

  within("status", filters.status__in)
  within("assignee", filters.assignee__in)
  within("insight_type", filters.insight_type__in)
  within("first_viewed_by", filters.first_viewed_by__in)
  within("last_viewed_by", filters.last_viewed_by__in)
  equal("is_current", filters.is_current === undefined ? undefined : boolean(filters.is_current))
  equal("resource_type", filters.resource_type)
  equal("dw_id", filters.dw_id)
  equal("connection_id", filters.connection_id)
  bound("view_count", ">=", filters.view_count__gte)
  bound("view_count", "<=", filters.view_count__lte)
  bound("first_viewed_at", ">=", time(filters.first_viewed_at__gte))
  bound("first_viewed_at", "<=", time(filters.first_viewed_at__lte))
  bound("last_viewed_at", ">=", time(filters.last_viewed_at__gte))
  bound("last_viewed_at", "<=", time(filters.last_viewed_at__lte))
  return conditions
}
