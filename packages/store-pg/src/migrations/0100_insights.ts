/**
 * Insights and their views. The indexes serve the keyset order of `GET /insights` (organization,
 * sort column, id) and its most common filter, the status; Postgres scans them in either
 * direction. Text that is grouped or ordered by compares bytewise (`COLLATE "C"`), as SQLite
 * does, so both stores order query results and page keys alike.
 */
import { SqlClient } from "@effect/sql/SqlClient"
import { Effect } from "effect"

const statements = [
  `CREATE TABLE insights (
    id text COLLATE "C" PRIMARY KEY,
    organization_id text NOT NULL REFERENCES organizations (id),
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
    first_viewed_by text,
    first_viewed_at timestamptz,
    last_viewed_by text,
    last_viewed_at timestamptz,
    view_count bigint NOT NULL DEFAULT 0,
    etag text NOT NULL
  )`,
  // The natural key of upserts.
  `CREATE UNIQUE INDEX insights_by_key ON insights (organization_id, insight_type, resource_id)`,
  `CREATE INDEX insights_by_create_time ON insights (organization_id, create_time, id)`,
  `CREATE INDEX insights_by_update_time ON insights (organization_id, update_time, id)`,
  `CREATE INDEX insights_by_status_create_time ON insights (organization_id, status, create_time, id)`,

  // One row per insight, viewer and UTC day: the primary key is the once-a-day rule.
  `CREATE TABLE insight_views (
    insight_id text COLLATE "C" NOT NULL REFERENCES insights (id) ON DELETE CASCADE,
    viewer text NOT NULL,
    day text NOT NULL,
    PRIMARY KEY (insight_id, viewer, day)
  )`
]

export default Effect.flatMap(SqlClient, (sql) => Effect.forEach(statements, (statement) => sql.unsafe(statement), { discard: true }))
