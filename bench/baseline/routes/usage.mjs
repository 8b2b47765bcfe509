// @ts-check
/**
 * GET /v2/usage-group-sets/{id}/attribution?month=YYYY-MM with costline's SQL: the set, its
 * groups in precedence order, then one pass over the month's usage records read as costline's
 * `UsageRecordsRepo.scan` reads them, 5,000 at a time. SQLite: the month's span of `seq` from the
 * time index, then keyset batches over that span (rows as arrays). Postgres: one cursor in a
 * REPEATABLE READ, READ ONLY transaction, fetched a batch at a time.
 */
import { makeAttribution } from "../attribution.mjs"

const BATCH = 5000
const MONTH = /^([0-9]{4})-(0[1-9]|1[0-2])$/
const COLUMNS = [
  "start_time", "credits", "warehouse_name", "warehouse_size", "user_name", "role_name", "database_name",
  "schema_name", "query_tag", "query_type", "service_type", "is_serverless", "execution_time_ms", "bytes_scanned",
  "accessed_databases", "tags", "dbt_project", "dbt_model", "account_name", "region", "dw_organization_name"
]
const SELECTED = COLUMNS.join(", ")

const SET = {
  sqlite: `SELECT id, organization_id, name, "order", team_id, etag, created_at, updated_at
    FROM usage_group_sets WHERE organization_id = ? AND id = ?`,
  postgres: `SELECT id, organization_id, name, "order", team_id, etag, created_at, updated_at
    FROM usage_group_sets WHERE organization_id = $1 AND id = $2`
}
const GROUPS = {
  sqlite: `SELECT g.id, g.organization_id, g.usage_group_set_id, s.name AS usage_group_set_name, g.name, g.budget,
    g."order", g.filter_expression, g.etag, g.created_at, g.updated_at
    FROM usage_groups g JOIN usage_group_sets s ON s.id = g.usage_group_set_id
    WHERE g.organization_id = ? AND g.usage_group_set_id = ? AND 1 = 1 ORDER BY g."order", g.created_at, g.id`,
  postgres: `SELECT g.id, g.organization_id, g.usage_group_set_id, s.name AS usage_group_set_name, g.name, g.budget,
    g."order", g.filter_expression, g.etag, g.created_at, g.updated_at
    FROM usage_groups g JOIN usage_group_sets s ON s.id = g.usage_group_set_id
    WHERE g.organization_id = $1 AND g.usage_group_set_id = $2 AND 1 = 1 ORDER BY g."order", g.created_at, g.id`
}
/** Each store scans its own way (see costline's UsageRecordsRepo): statements only one of them runs. */
const onSqlite = (/** @type {string} */ sqlite) => ({ sqlite, postgres: "" })
const onPostgres = (/** @type {string} */ postgres) => ({ sqlite: "", postgres })

const SEQ_SPAN = onSqlite(`SELECT min(seq) AS first, max(seq) AS last FROM usage_records
  WHERE organization_id = ? AND start_time >= ? AND start_time < ?`)
const SEQ_BATCH = onSqlite(`SELECT seq, ${SELECTED} FROM usage_records NOT INDEXED
  WHERE seq > ? AND seq <= ? AND organization_id = ? AND start_time >= ? AND start_time < ? ORDER BY seq LIMIT ?`)
const SNAPSHOT = onPostgres("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
const DECLARE = onPostgres(`DECLARE usage_scan NO SCROLL CURSOR FOR SELECT ${SELECTED} FROM usage_records
  WHERE organization_id = $1 AND start_time >= $2 AND start_time < $3`)
const FETCH = onPostgres(`FETCH FORWARD ${BATCH} FROM usage_scan`)
const CLOSE = onPostgres("CLOSE usage_scan")

/**
 * A SQLite row (`seq`, then COLUMNS) as a record of its non-NULL values (filters treat a missing
 * value as NULL): JSON text parsed, 0/1 as a boolean. @param {Array<any>} row
 */
const sqliteRecord = (row) => {
  /** @type {Record<string, any>} */
  const record = {}
  for (let i = 0; i < COLUMNS.length; i++) if (row[i + 1] !== null) record[/** @type {string} */ (COLUMNS[i])] = row[i + 1]
  if (record.tags !== undefined) record.tags = JSON.parse(record.tags)
  if (record.accessed_databases !== undefined) record.accessed_databases = JSON.parse(record.accessed_databases)
  if (record.is_serverless !== undefined) record.is_serverless = record.is_serverless === 1
  return record
}

/** @param {import("../stores.mjs").Store} store @param {Array<unknown>} scan @param {(record: Record<string, any>) => void} add */
const sqliteScan = async (store, scan, add) => {
  const [span] = await store.all(SEQ_SPAN, scan)
  if (span?.first == null) return
  for (let after = span.first - 1;;) {
    const rows = await store.values(SEQ_BATCH, [after, span.last, ...scan, BATCH])
    for (const row of rows) add(sqliteRecord(row))
    if (rows.length < BATCH) return
    after = rows[rows.length - 1]?.[0]
  }
}

/** node-postgres parses jsonb and booleans already: its rows serve as records. @param {import("../stores.mjs").Store} store @param {Array<unknown>} scan @param {(record: Record<string, any>) => void} add */
const postgresScan = (store, scan, add) =>
  store.transaction(async (all) => {
    await all(SNAPSHOT, [])
    await all(DECLARE, scan)
    for (;;) {
      const rows = await all(FETCH, [])
      for (const row of rows) add(row)
      if (rows.length < BATCH) break
    }
    await all(CLOSE, [])
  })

/** @type {import("../app.mjs").Route} */
export const usageAttribution = async ({ id, store, tenant, url }) => {
  const month = url.searchParams.get("month") ?? ""
  const parts = MONTH.exec(month)
  if (parts === null) return { status: 400, body: { detail: "month must be YYYY-MM" } }
  const [set] = await store.all(SET, [tenant, id])
  if (set === undefined) return { status: 404, body: { detail: "Not Found" } }
  const groups = (await store.all(GROUPS, [tenant, id])).map((group) => ({
    id: group.id,
    name: group.name,
    order: group.order,
    budget: group.budget,
    filter_expression: JSON.parse(group.filter_expression)
  }))
  const year = Number(parts[1])
  const index = Number(parts[2]) - 1
  const scan = [tenant, new Date(Date.UTC(year, index, 1)).toISOString(), new Date(Date.UTC(year, index + 1, 1)).toISOString()]
  const attribution = makeAttribution(groups)
  await (store.dialect === "sqlite" ? sqliteScan(store, scan, attribution.add) : postgresScan(store, scan, attribution.add))
  return { status: 200, body: { usage_group_set_id: set.id, month, ...attribution.report() } }
}
