/**
 * `InsightQuery` as one SQL `GROUP BY` over the organization's filtered insights: each dimension
 * an expression, each measure an aggregate, named after themselves. Rows are ordered by
 * `order_by`, then by every dimension ascending, so the cut at `limit` is stable; NULL sorts as
 * the smallest value on both databases.
 */
import type { Ids, Insight } from "@costline/core"
import type { SqlClient } from "@effect/sql/SqlClient"
import type { SqlError } from "@effect/sql/SqlError"
import type { Fragment } from "@effect/sql/Statement"
import { Effect, type ParseResult, Schema } from "effect"
import { DbBoolean } from "../Columns.js"
import type { SqlValue } from "../SqlDialect.js"
import { insightFilterConditions } from "./InsightFilters.js"

type Field = Insight.InsightDimension | Insight.InsightMeasure

/** The UTC day or month of `create_time` as `YYYY-MM-DD` / `YYYY-MM`. SQLite stores it as ISO text. */
const createTimePrefix = (sql: SqlClient, format: "YYYY-MM-DD" | "YYYY-MM"): Fragment =>
  sql.onDialectOrElse({
    pg: () => sql.literal(`to_char(create_time AT TIME ZONE 'UTC', '${format}') COLLATE "C"`),
    orElse: () => sql.literal(`substr(create_time, 1, ${format.length})`)
  })

const dimensionExpression = (sql: SqlClient, dimension: Insight.InsightDimension): Fragment => {
  switch (dimension) {
    case "create_day":
      return createTimePrefix(sql, "YYYY-MM-DD")
    case "create_month":
      return createTimePrefix(sql, "YYYY-MM")
    default:
      return sql`${sql(dimension)}`
  }
}

const MEASURES: Record<Insight.InsightMeasure, string> = {
  count: "COUNT(*)",
  potential_savings_sum: "SUM(potential_savings)",
  potential_savings_avg: "AVG(potential_savings)",
  view_count_sum: "SUM(view_count)"
}

/** node-postgres returns `bigint` and `numeric` (counts, integer sums) as strings. */
const DbNumber = Schema.Union(Schema.Number, Schema.NumberFromString)
const Text = Schema.NullOr(Schema.String)

const CODECS = {
  insight_type: Text,
  status: Text,
  assignee: Text,
  severity: Text,
  resource_type: Text,
  dw_id: Text,
  connection_id: Text,
  is_current: DbBoolean,
  create_day: Text,
  create_month: Text,
  count: DbNumber,
  potential_savings_sum: Schema.NullOr(DbNumber),
  potential_savings_avg: Schema.NullOr(DbNumber),
  view_count_sum: Schema.NullOr(DbNumber)
} satisfies Record<Field, Schema.Schema.AnyNoContext>

/**
 * The decoder of one selection of fields, compiled once per selection: building it on every query
 * cost more than decoding the rows. Selections are combinations of a fixed set of fields.
 */
const decoders = new Map<string, (rows: unknown) => Effect.Effect<ReadonlyArray<Record<string, unknown>>, ParseResult.ParseError>>()
const rowsDecoder = (fields: ReadonlyArray<Field>) => {
  const key = fields.join(",")
  let decoder = decoders.get(key)
  if (decoder === undefined) {
    decoder = Schema.decodeUnknown(
      Schema.Array(Schema.Struct(Object.fromEntries(fields.map((field) => [field, CODECS[field]]))))
    ) as (rows: unknown) => Effect.Effect<ReadonlyArray<Record<string, unknown>>, ParseResult.ParseError>
    decoders.set(key, decoder)
  }
  return decoder
}

const direction = (order: "asc" | "desc") => (order === "asc" ? "ASC NULLS FIRST" : "DESC NULLS LAST")

export const aggregate = (
  sql: SqlClient,
  boolean: (value: boolean) => SqlValue,
  organizationId: Ids.OrganizationId,
  query: Insight.InsightQuery
): Effect.Effect<ReadonlyArray<Insight.InsightQueryRow>, SqlError> => {
  const selected = [
    ...query.dimensions.map((dimension) => sql`${dimensionExpression(sql, dimension)} AS ${sql(dimension)}`),
    ...query.measures.map((measure) => sql`${sql.literal(MEASURES[measure])} AS ${sql(measure)}`)
  ]
  // Grouped by the expressions themselves: in GROUP BY, Postgres reads a bare name as the
  // table's column rather than as the output column of that name.
  const groupBy = query.dimensions.map((dimension) => dimensionExpression(sql, dimension))
  const ordered = new Set(query.order_by.map((order) => order.field))
  const orderBy = [
    ...query.order_by.map((order) => sql`${sql(order.field)} ${sql.literal(direction(order.direction))}`),
    ...query.dimensions.filter((dimension) => !ordered.has(dimension)).map((dimension) =>
      sql`${sql(dimension)} ${sql.literal(direction("asc"))}`
    )
  ]
  const conditions = [sql`organization_id = ${organizationId}`, ...insightFilterConditions(sql, boolean, query.filters)]
  const fields: ReadonlyArray<Field> = [...query.dimensions, ...query.measures]
  const decodeRows = rowsDecoder(fields)
  return sql`
    SELECT ${sql.csv(selected)} FROM insights
    WHERE ${sql.and(conditions)}
    ${sql.csv("GROUP BY", groupBy)}
    ${sql.csv("ORDER BY", orderBy)}
    LIMIT ${query.limit}`.pipe(
    // A row that does not decode means a broken query: a defect.
    Effect.flatMap((rows) => Effect.orDie(decodeRows(rows)))
  )
}
