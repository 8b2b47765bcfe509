/**
 * The usage the `usage_attribution` scenario attributes: records spread over one month, and 50
 * groups of several filter shapes (warehouse lists, a tag with an ILIKE, OR of prefix and suffix,
 * AND of two dimensions) that overlap, so precedence matters and some usage is left over. Every
 * value is a pure function of its index: the same data on every store and every run.
 */
import type { Ids, Usage } from "@costline/core"

export const USAGE_MONTH = "2024-05"
export const MONTH_WITHOUT_USAGE = "2024-04"
export const USAGE_GROUPS = 50
const MONTH_START = Date.UTC(2024, 4, 1)
const MONTH_MILLIS = 31 * 86_400_000
const SIZES = ["X-Small", "Small", "Medium", "Large"] as const

/** A well-spread number in [0, 1) for record `n` and draw `k` (a 32-bit integer hash). */
const unit = (n: number, k: number): number => {
  let h = Math.imul(n ^ 0x9e3779b9, 0x85ebca6b) ^ Math.imul(k + 1, 0xc2b2ae35)
  h ^= h >>> 16
  h = Math.imul(h, 0x7feb352d)
  h ^= h >>> 15
  h = Math.imul(h, 0x846ca68b)
  h ^= h >>> 16
  return (h >>> 0) / 4294967296
}

const pick = (prefix: string, count: number, n: number, k: number) =>
  `${prefix}_${String(Math.floor(unit(n, k) * count)).padStart(2, "0")}`

/** The n-th usage record as a usage file holds it (`start_time` as ISO text). */
export const usageRecord = (n: number) => ({
  start_time: new Date(MONTH_START + Math.floor(unit(n, 0) * MONTH_MILLIS)).toISOString(),
  credits: Math.round(unit(n, 1) * 2000) / 1000,
  warehouse_name: pick("WH", 60, n, 2),
  warehouse_size: SIZES[Math.floor(unit(n, 3) * SIZES.length)]!,
  user_name: pick("user", 200, n, 4),
  role_name: pick("ROLE", 10, n, 5),
  database_name: pick("DB", 20, n, 6),
  query_type: unit(n, 7) < 0.7 ? "SELECT" : "INSERT",
  query_tag: unit(n, 8) < 0.5 ? pick("dbt", 30, n, 9) : null,
  tags: { team: pick("team", 12, n, 10) }
})

/** Every column `UsageRecordsRepo.insert` writes, in its order; absent dimensions are NULL. */
const COLUMNS = [
  "start_time", "credits", "warehouse_name", "warehouse_size", "user_name", "role_name", "database_name",
  "schema_name", "query_tag", "query_type", "service_type", "is_serverless", "execution_time_ms", "bytes_scanned",
  "accessed_databases", "tags", "dbt_project", "dbt_model", "account_name", "region", "dw_organization_name"
] as const satisfies ReadonlyArray<keyof Usage.UsageRecord>

/** The store's row for a record, as `UsageRecordsRepo.insert` writes it: JSON as text. */
export const usageRow = (organizationId: Ids.OrganizationId) => (record: ReturnType<typeof usageRecord>) => {
  const values: Record<string, unknown> = record
  const row: Record<string, unknown> = { organization_id: organizationId }
  for (const column of COLUMNS) row[column] = values[column] ?? null
  row["tags"] = JSON.stringify(record.tags)
  return row
}

const leaf = (path: ReadonlyArray<string>, operator: string, value: unknown) => ({ field: { path }, operator, value })
const two = (n: number) => String(n).padStart(2, "0")

/** Group `i`'s filter expression, as a client writes it. */
const filterOf = (i: number) => {
  if (i < 25) return { operator: "and", filters: [leaf(["warehouse_name"], "in", [`WH_${two(2 * i)}`, `WH_${two(2 * i + 1)}`])] }
  if (i < 35) {
    return { operator: "and", filters: [leaf(["tags", "team"], "=", `team_${two(i - 25)}`), leaf(["role_name"], "ilike", "role_0%")] }
  }
  if (i < 45) {
    return { operator: "or", filters: [leaf(["query_tag"], "starts_with", `dbt_${i - 35}`), leaf(["user_name"], "ends_with", `_${i}`)] }
  }
  return { operator: "and", filters: [leaf(["warehouse_size"], "=", "Large"), leaf(["database_name"], "in", [`DB_${i - 30}`])] }
}

/** The groups' creation inputs (`CreateUsageGroup`); every tenth has no budget. */
export const usageGroupInputs = (): ReadonlyArray<unknown> =>
  Array.from({ length: USAGE_GROUPS }, (_, i) => ({
    name: `group ${i}`,
    order: i,
    budget: i % 10 === 9 ? null : 500 + 10 * i,
    filter_expression: filterOf(i)
  }))
