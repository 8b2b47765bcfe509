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
    id text PRIMARY KEY,
    organization_id text NOT NULL REFERENCES organizations (id),
    started_at timestamptz NOT NULL,
    heartbeat_at timestamptz NOT NULL
  )`,
  `CREATE TABLE staged_insights (
    import_id text NOT NULL,
    base_etag text,
    conflict boolean NOT NULL DEFAULT false,
    id text COLLATE "C" NOT NULL,
    organization_id text NOT NULL,
    insight_type text COLLATE "C" NOT NULL,
    resource_type text COLLATE "C" NOT NULL,
    resource_id text NOT NULL,
    title text NOT NULL,
    description text NOT NULL,
    severity text COLLATE "C" NOT NULL,
    status text COLLATE "C" NOT NULL,
    assignee text COLLATE "C",
    is_current boolean NOT NULL,
    dw_id text COLLATE "C",
    connection_id text COLLATE "C",
    potential_savings double precision,
    details jsonb NOT NULL,
    create_time timestamptz NOT NULL,
    update_time timestamptz NOT NULL,
    etag text NOT NULL,
    PRIMARY KEY (import_id, insight_type, resource_id)
  )`,
  `CREATE TABLE staged_insight_audit (
    import_id text NOT NULL,
    line integer NOT NULL,
    id text NOT NULL,
    organization_id text NOT NULL,
    changed_at timestamptz NOT NULL,
    kind text NOT NULL,
    resource text,
    event_type text,
    table_name text NOT NULL,
    record_id text,
    operation text NOT NULL,
    status text NOT NULL,
    changed_by text NOT NULL,
    changed_by_type text NOT NULL,
    old_values jsonb,
    new_values jsonb,
    request_id text,
    PRIMARY KEY (import_id, line)
  )`
]

export default Effect.flatMap(SqlClient, (sql) => Effect.forEach(statements, (statement) => sql.unsafe(statement), { discard: true }))
