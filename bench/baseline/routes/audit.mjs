// @ts-check
/**
 * GET /v2/audit-logs?max_results=&page_token= with costline's SQL: the same columns, the same
 * keyset condition and order per dialect (SQLite: `seq`; Postgres: the commit-order `stamp`),
 * served by the same indexes. Ascending order and no filters: what the
 * benchmark asks.
 */
const COLUMNS =
  "id, organization_id, changed_at, kind, resource, event_type, table_name, record_id, operation, status, " +
  "changed_by, changed_by_type, old_values, new_values, request_id"

const FIRST_PAGE = {
  sqlite: `SELECT ${COLUMNS}, seq FROM audit_records WHERE organization_id = ? AND 1 = 1 ORDER BY seq ASC LIMIT ?`,
  postgres: `SELECT ${COLUMNS}, stamp::text AS position_stamp FROM audit_records
    WHERE organization_id = $1 AND stamp IS NOT NULL ORDER BY stamp ASC LIMIT $2`
}
const NEXT_PAGE = {
  sqlite: `SELECT ${COLUMNS}, seq FROM audit_records WHERE organization_id = ? AND 1 = 1 AND seq > ? ORDER BY seq ASC LIMIT ?`,
  postgres: `SELECT ${COLUMNS}, stamp::text AS position_stamp FROM audit_records
    WHERE organization_id = $1 AND stamp IS NOT NULL AND stamp > $2::bigint ORDER BY stamp ASC LIMIT $3`
}

/** Text JSON columns on SQLite, parsed jsonb on Postgres; text timestamps on SQLite, Dates on Postgres. */
const json = (/** @type {unknown} */ value) => (typeof value === "string" ? JSON.parse(value) : value)
const iso = (/** @type {string | Date} */ value) => (typeof value === "string" ? value : value.toISOString())

/** The API's audit item: the tenant is implied by the request, so `organization_id` stays out. @param {Record<string, any>} row */
const toItem = (row) => ({
  id: row.id,
  changed_at: iso(row.changed_at),
  kind: row.kind,
  resource: row.resource,
  event_type: row.event_type,
  table_name: row.table_name,
  record_id: row.record_id,
  operation: row.operation,
  status: row.status,
  changed_by: row.changed_by,
  changed_by_type: row.changed_by_type,
  old_values: json(row.old_values),
  new_values: json(row.new_values),
  request_id: row.request_id
})

/** @param {import("../stores.mjs").Store} store @param {Record<string, any>} row */
const positionOf = (store, row) => (store.dialect === "sqlite" ? String(row.seq) : String(row.position_stamp))

/** @param {import("../stores.mjs").Store} store @param {string} position */
const afterParams = (store, position) => (store.dialect === "sqlite" ? [Number(position)] : [position])

/** @type {import("../app.mjs").Route} */
export const exportAuditLogs = async ({ store, tokens, tenant, url }) => {
  const limit = Number(url.searchParams.get("max_results") ?? 100)
  const pageToken = url.searchParams.get("page_token")
  const position = pageToken === null ? undefined : tokens.open(pageToken, tenant, "asc")
  if (pageToken !== null && position === undefined) return { status: 400, body: { detail: "invalid page_token" } }
  const rows = position === undefined
    ? await store.all(FIRST_PAGE, [tenant, limit])
    : await store.all(NEXT_PAGE, [tenant, ...afterParams(store, position), limit])
  const last = rows.at(-1)
  const items = rows.map(toItem)
  // As costline: a page with records always points past its last one.
  const page_token = last === undefined ? null : tokens.encode(tenant, "asc", positionOf(store, last))
  return { status: 200, body: { items, page_token, row_count: items.length } }
}
