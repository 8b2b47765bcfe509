/**
 * Insights and their views. The indexes serve the keyset order of `GET /insights` (organization,
 * sort column, id) and its most common filter, the status; SQLite scans them in either direction.
 */
import { SqlClient } from "@effect/sql/SqlClient"
import { Effect } from "effect"

const statements = [
  `CREATE TABLE insights (
    id TEXT PRIMARY KEY,
    organization_id TEXT NOT NULL REFERENCES organizations (id),
    insight_type TEXT NOT NULL,
    resource_type TEXT NOT NULL,
    resource_id TEXT NOT NULL,
    title TEXT NOT NULL,
    description TEXT NOT NULL,
    severity TEXT NOT NULL,
    status TEXT NOT NULL,
    assignee TEXT,
    is_current INTEGER NOT NULL CHECK (is_current IN (0, 1)),
    dw_id TEXT,
    connection_id TEXT,
    potential_savings REAL,
    details TEXT NOT NULL,
    create_time TEXT NOT NULL,
    update_time TEXT NOT NULL,
    first_viewed_by TEXT,
    first_viewed_at TEXT,
    last_viewed_by TEXT,
    last_viewed_at TEXT,
    view_count INTEGER NOT NULL DEFAULT 0,
    etag TEXT NOT NULL
  ) STRICT`,
  // The natural key of upserts.
  `CREATE UNIQUE INDEX insights_by_key ON insights (organization_id, insight_type, resource_id)`,
  `CREATE INDEX insights_by_create_time ON insights (organization_id, create_time, id)`,
  `CREATE INDEX insights_by_update_time ON insights (organization_id, update_time, id)`,
  `CREATE INDEX insights_by_status_create_time ON insights (organization_id, status, create_time, id)`,

  // One row per insight, viewer and UTC day: the primary key is the once-a-day rule.
  `CREATE TABLE insight_views (
    insight_id TEXT NOT NULL REFERENCES insights (id) ON DELETE CASCADE,
    viewer TEXT NOT NULL,
    day TEXT NOT NULL,
    PRIMARY KEY (insight_id, viewer, day)
  ) STRICT, WITHOUT ROWID`
]

export default Effect.flatMap(SqlClient, (sql) => Effect.forEach(statements, (statement) => sql.unsafe(statement), { discard: true }))
