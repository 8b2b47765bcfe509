/** The export filters of GET /v2/audit-logs as SQL conditions, identical on both dialects. */
import type { Audit } from "@costline/core"
import type { SqlClient } from "@effect/sql/SqlClient"
import type { Fragment } from "@effect/sql/Statement"
import { isoText } from "../Columns.js"

type Values = ReadonlyArray<string> | undefined

/**
 * `\` escapes `%`, `_` and itself in `changed_by` patterns on both databases. A pattern ending in
 * a lone `\` would be an error on Postgres; it matches a literal backslash instead.
 */
export const likePattern = (pattern: string): string => {
  const trailing = /\\+$/.exec(pattern)?.[0].length ?? 0
  return trailing % 2 === 1 ? `${pattern}\\` : pattern
}

export const auditFilterConditions = (sql: SqlClient, filters: Audit.AuditFilters): Array<Fragment> => {
  const when = (present: boolean, condition: () => Fragment) => (present ? [condition()] : [])
  const within = (column: string, values: Values) =>
    when(values !== undefined && values.length > 0, () => sql`${sql(column)} IN ${sql.in(values!)}`)
  // A record without the field (the resource of an event) is none of the excluded values.
  const outside = (column: string, values: Values) =>
    when(
      values !== undefined && values.length > 0,
      () => sql`(${sql(column)} IS NULL OR ${sql(column)} NOT IN ${sql.in(values!)})`
    )
  const changedByLike = (pattern: string | undefined, negated: boolean) =>
    when(
      pattern !== undefined,
      () =>
        sql`lower(changed_by) ${sql.literal(negated ? "NOT LIKE" : "LIKE")} lower(${likePattern(pattern!)}) ESCAPE '\\'`
    )
  const { changed_at_gte, changed_at_lte, changed_by_isnull } = filters
  return [
    ...when(changed_at_gte !== undefined, () => sql`changed_at >= ${isoText(changed_at_gte!)}`),
    ...when(changed_at_lte !== undefined, () => sql`changed_at <= ${isoText(changed_at_lte!)}`),
    ...within("table_name", filters.table_name_in),
    ...within("event_type", filters.event_type_in),
    ...within("resource", filters.resource_in),
    ...outside("resource", filters.resource_not_in),
    ...within("operation", filters.operation_in),
    ...outside("operation", filters.operation_not_in),
    ...within("status", filters.status_in),
    ...outside("status", filters.status_not_in),
    ...within("id", filters.id_in),
    ...changedByLike(filters.changed_by_ilike, false),
    ...changedByLike(filters.changed_by_not_ilike, true),
    ...when(
      changed_by_isnull !== undefined,
      () => sql`changed_by ${sql.literal(changed_by_isnull ? "IS NULL" : "IS NOT NULL")}`
    )
  ]
}
