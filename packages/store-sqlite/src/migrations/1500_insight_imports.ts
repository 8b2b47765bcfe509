/**
 * Staged insight imports (see core's InsightImport), staged the way usage imports are: the
 * registration with its heartbeat, and where no reader looks, each insight's latest staged state
 * (the columns of `insights`, plus `base_etag`, the ETag of the published row the import changed,
 * NULL when there was none, and `conflict`, set at publishing when that base no longer holds) and
 * the audit records to append, in order (the columns of `audit_records`).
 */
import { SqlClient } from "@effect/sql/SqlClient"
import { Effect } from "effect"

const statements = [
  `CREATE TABLE insight_imports (
    id TEXT PRIMARY KEY,
    organization_id TEXT NOT NULL REFERENCES organizations (id),
    started_at TEXT NOT NULL,
    heartbeat_at TEXT NOT NULL
  ) STRICT`,
  `CREATE TABLE staged_insights (
    import_id TEXT NOT NULL,
    base_etag TEXT,
    conflict INTEGER NOT NULL DEFAULT 0,
    id TEXT NOT NULL,
    organization_id TEXT NOT NULL,
    insight_type TEXT NOT NULL,
    resource_type TEXT NOT NULL,
    resource_id TEXT NOT NULL,
    title TEXT NOT NULL,
    description TEXT NOT NULL,
    severity TEXT NOT NULL,
    status TEXT NOT NULL,
    assignee TEXT,
    is_current INTEGER NOT NULL,
    dw_id TEXT,
    connection_id TEXT,
    potential_savings REAL,
    details TEXT NOT NULL,
    create_time TEXT NOT NULL,
    update_time TEXT NOT NULL,
    etag TEXT NOT NULL,
    PRIMARY KEY (import_id, insight_type, resource_id)
  ) STRICT`,
  `CREATE TABLE staged_insight_audit (
    import_id TEXT NOT NULL,
    line INTEGER NOT NULL,
    id TEXT NOT NULL,
    organization_id TEXT NOT NULL,
    changed_at TEXT NOT NULL,
    kind TEXT NOT NULL,
    resource TEXT,
    event_type TEXT,
    table_name TEXT NOT NULL,
    record_id TEXT,
    operation TEXT NOT NULL,
    status TEXT NOT NULL,
    changed_by TEXT NOT NULL,
    changed_by_type TEXT NOT NULL,
    old_values TEXT,
    new_values TEXT,
    request_id TEXT,
    PRIMARY KEY (import_id, line)
  ) STRICT`
]

export default Effect.flatMap(SqlClient, (sql) => Effect.forEach(statements, (statement) => sql.unsafe(statement), { discard: true }))
