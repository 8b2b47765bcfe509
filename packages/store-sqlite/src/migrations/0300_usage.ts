/**
 * Usage group sets, usage groups and usage records. `"order"` is quoted: ORDER is a keyword.
 * Filter expressions are JSON text, read and written whole.
 */
import { SqlClient } from "@effect/sql/SqlClient"
import { Effect } from "effect"

const statements = [
  `CREATE TABLE usage_group_sets (
    id TEXT PRIMARY KEY,
    organization_id TEXT NOT NULL REFERENCES organizations (id),
    name TEXT NOT NULL,
    name_key TEXT NOT NULL,
    "order" INTEGER NOT NULL CHECK ("order" >= 0),
    team_id TEXT REFERENCES teams (id),
    etag TEXT NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
  ) STRICT`,
  // name_key is the case-folded name (core's setNameKey): names are unique ignoring case.
  `CREATE UNIQUE INDEX usage_group_sets_name_per_organization ON usage_group_sets (organization_id, name_key)`,

  `CREATE TABLE usage_groups (
    id TEXT PRIMARY KEY,
    organization_id TEXT NOT NULL REFERENCES organizations (id),
    usage_group_set_id TEXT NOT NULL REFERENCES usage_group_sets (id),
    name TEXT NOT NULL,
    budget REAL CHECK (budget IS NULL OR budget >= 0),
    "order" INTEGER NOT NULL CHECK ("order" >= 0),
    filter_expression TEXT NOT NULL,
    etag TEXT NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
  ) STRICT`,
  // Precedence order, which is also the list order and its keyset.
  `CREATE INDEX usage_groups_by_precedence ON usage_groups (usage_group_set_id, "order", created_at, id)`,

  // seq: one writer at a time, so a higher seq is a later commit (see UsageRecordsRepo's scans).
  `CREATE TABLE usage_records (
    seq INTEGER PRIMARY KEY,
    organization_id TEXT NOT NULL REFERENCES organizations (id),
    start_time TEXT NOT NULL,
    credits REAL NOT NULL,
    warehouse_name TEXT,
    warehouse_size TEXT,
    user_name TEXT,
    role_name TEXT,
    database_name TEXT,
    schema_name TEXT,
    query_tag TEXT,
    query_type TEXT,
    service_type TEXT,
    is_serverless INTEGER CHECK (is_serverless IN (0, 1)),
    execution_time_ms REAL,
    bytes_scanned REAL,
    accessed_databases TEXT,
    tags TEXT,
    dbt_project TEXT,
    dbt_model TEXT,
    account_name TEXT,
    region TEXT,
    dw_organization_name TEXT
  ) STRICT`,
  `CREATE INDEX usage_records_by_time ON usage_records (organization_id, start_time, seq)`
]

export default Effect.flatMap(SqlClient, (sql) => Effect.forEach(statements, (statement) => sql.unsafe(statement), { discard: true }))
