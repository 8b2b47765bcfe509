// @ts-check
/**
 * The insight routes with costline's SQL: the first page of a status-filtered list in
 * (create_time, id) descending order, one row more than the page to know whether another
 * follows; and one insight by id, its ETag in the header.
 */
import { createHash, randomUUID } from "node:crypto"

export const COLUMNS = "id, insight_type, title, description, status, assignee, is_current, severity, resource_type, " +
  "resource_id, dw_id, connection_id, potential_savings, details, create_time, update_time, first_viewed_by, " +
  "last_viewed_by, first_viewed_at, last_viewed_at, view_count, etag"

export const BY_ID = {
  sqlite: `SELECT ${COLUMNS} FROM insights WHERE organization_id = ? AND id = ?`,
  postgres: `SELECT ${COLUMNS} FROM insights WHERE organization_id = $1 AND id = $2`
}
export const FIRST_PAGE_BY_STATUS = {
  sqlite: `SELECT ${COLUMNS} FROM insights WHERE organization_id = ? AND status IN (?)
    ORDER BY create_time DESC, id DESC LIMIT ?`,
  postgres: `SELECT ${COLUMNS} FROM insights WHERE organization_id = $1 AND status IN ($2)
    ORDER BY create_time DESC, id DESC LIMIT $3`
}

const iso = (/** @type {string | Date | null} */ value) => (value === null || typeof value === "string" ? value : value.toISOString())

/** @param {Record<string, any>} row @returns {Record<string, any>} */
export const toInsight = (row) => ({
  ...row,
  is_current: row.is_current === 1 || row.is_current === true,
  details: typeof row.details === "string" ? JSON.parse(row.details) : row.details,
  create_time: iso(row.create_time),
  update_time: iso(row.update_time),
  first_viewed_at: iso(row.first_viewed_at),
  last_viewed_at: iso(row.last_viewed_at),
  view_count: Number(row.view_count)
})

/** @type {import("../app.mjs").Route} */
export const getInsight = async ({ id, store, tenant }) => {
  const [row] = await store.all(BY_ID, [tenant, id])
  if (row === undefined) return { status: 404, body: { detail: "Not Found" } }
  return { status: 200, body: toInsight(row), headers: { etag: row.etag } }
}

/** @type {import("../app.mjs").Route} */
export const listInsights = async ({ store, tenant, tokens, url }) => {
  const limit = Number(url.searchParams.get("max_results") ?? 50)
  const rows = await store.all(FIRST_PAGE_BY_STATUS, [tenant, url.searchParams.get("status__in"), limit + 1])
  const items = rows.slice(0, limit).map(toInsight)
  const last = items.at(-1)
  const page_token = rows.length > limit && last !== undefined
    ? tokens.encode(tenant, "insights:create_time:desc", JSON.stringify([last.create_time, last.id]))
    : null
  return { status: 200, body: { items, page_token, row_count: items.length } }
}

/**
 * The one aggregate the benchmark asks for (`dimensions: [status, severity]`, `measures: [count,
 * potential_savings_sum]`), as `InsightAggregate` writes it: grouped by the expressions, ordered
 * by every dimension ascending with NULLs first, cut at the query's default limit.
 */
const BY_STATUS_AND_SEVERITY = {
  sqlite: `SELECT status AS status, severity AS severity, COUNT(*) AS count, SUM(potential_savings) AS potential_savings_sum
    FROM insights WHERE organization_id = ? GROUP BY status, severity
    ORDER BY status ASC NULLS FIRST, severity ASC NULLS FIRST LIMIT ?`,
  postgres: `SELECT status AS status, severity AS severity, COUNT(*) AS count, SUM(potential_savings) AS potential_savings_sum
    FROM insights WHERE organization_id = $1 GROUP BY status, severity
    ORDER BY status ASC NULLS FIRST, severity ASC NULLS FIRST LIMIT $2`
}
const DEFAULT_QUERY_LIMIT = 1000

/** @type {import("../app.mjs").Route} */
export const queryInsights = async ({ body, store, tenant }) => {
  await body()
  const rows = await store.all(BY_STATUS_AND_SEVERITY, [tenant, DEFAULT_QUERY_LIMIT])
  // node-postgres returns bigint counts and numeric sums as text.
  const items = rows.map((row) => ({
    status: row.status,
    severity: row.severity,
    count: Number(row.count),
    potential_savings_sum: row.potential_savings_sum === null ? null : Number(row.potential_savings_sum)
  }))
  return { status: 200, body: { items, row_count: items.length } }
}

const LOCKED_BY_ID = {
  sqlite: BY_ID.sqlite,
  postgres: `${BY_ID.postgres} FOR UPDATE`
}
const UPDATE_IF_ETAG = {
  sqlite: `UPDATE insights SET status = ?, assignee = ?, etag = ?, update_time = ?
    WHERE organization_id = ? AND id = ? AND etag = ? RETURNING ${COLUMNS}`,
  postgres: `UPDATE insights SET status = $1, assignee = $2, etag = $3, update_time = $4
    WHERE organization_id = $5 AND id = $6 AND etag = $7 RETURNING ${COLUMNS}`
}
const APPEND_AUDIT = {
  sqlite: `INSERT INTO audit_records (id, organization_id, changed_at, kind, resource, event_type, table_name, record_id,
    operation, status, changed_by, changed_by_type, old_values, new_values, request_id)
    VALUES (?, ?, ?, 'resource', 'insights', NULL, 'insights', ?, 'update', 'success', ?, 'api_key', ?, ?, NULL)`,
  postgres: `INSERT INTO audit_records (id, organization_id, changed_at, kind, resource, event_type, table_name, record_id,
    operation, status, changed_by, changed_by_type, old_values, new_values, request_id)
    VALUES ($1, $2, $3, 'resource', 'insights', NULL, 'insights', $4, 'update', 'success', $5, 'api_key', $6, $7, NULL)`
}

/** JSON with sorted keys: what costline hashes into an ETag. @param {unknown} value @returns {string} */
export const canonicalJson = (value) => {
  if (Array.isArray(value)) return `[${value.map((item) => canonicalJson(item ?? null)).join(",")}]`
  if (value !== null && typeof value === "object") {
    const record = /** @type {Record<string, unknown>} */ (value)
    return `{${Object.keys(record).filter((key) => record[key] !== undefined).sort()
      .map((key) => `${JSON.stringify(key)}:${canonicalJson(record[key])}`).join(",")}}`
  }
  return JSON.stringify(value) ?? "null"
}

const EDITABLE = ["status", "assignee", "title", "description", "severity", "is_current", "resource_type", "resource_id",
  "dw_id", "connection_id", "potential_savings", "details"]

/** @param {Record<string, any>} insight */
const editable = (insight) => Object.fromEntries(EDITABLE.map((field) => [field, insight[field]]))
export const etagOf = (/** @type {Record<string, any>} */ insight) =>
  `"${createHash("sha256").update(canonicalJson(editable(insight)), "utf8").digest().subarray(0, 16).toString("base64url")}"`

/**
 * PATCH with If-Match: in one transaction, the row read (and locked on Postgres), the condition
 * checked, the compare-and-set UPDATE, and the `insights` audit record of the changed fields.
 * @type {import("../app.mjs").Route}
 */
export const patchInsight = async ({ body, changedBy, id, request, store, tenant }) => {
  const patch = await body()
  const ifMatch = request.headers["if-match"]
  if (ifMatch === undefined) return { status: 428, body: { detail: "If-Match is required" } }
  return store.transaction(async (all) => {
    const [row] = await all(LOCKED_BY_ID, [tenant, id])
    if (row === undefined) return { status: 404, body: { detail: "Not Found" } }
    const current = toInsight(row)
    if (ifMatch !== "*" && ifMatch !== current.etag) return { status: 412, body: { detail: "stale" } }
    const next = { ...current, ...patch }
    const changed = EDITABLE.filter((field) => canonicalJson(current[field]) !== canonicalJson(next[field]))
    if (changed.length === 0) return { status: 200, body: current, headers: { etag: current.etag } }
    const now = new Date().toISOString()
    const [updated] = await all(UPDATE_IF_ETAG, [next.status, next.assignee, etagOf(next), now, tenant, id, current.etag])
    const values = (/** @type {Record<string, any>} */ from) => JSON.stringify(Object.fromEntries(changed.map((field) => [field, from[field]])))
    await all(APPEND_AUDIT, [randomUUID(), tenant, now, id, changedBy, values(current), values(next)])
    const insight = toInsight(/** @type {Record<string, any>} */ (updated))
    return { status: 200, body: insight, headers: { etag: insight.etag } }
  })
}
