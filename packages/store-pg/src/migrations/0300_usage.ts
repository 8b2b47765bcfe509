/**
 * Usage group sets, usage groups and usage records. `"order"` is quoted: ORDER is a keyword.
 * Filter expressions are text, not jsonb: jsonb would reorder the keys of what clients wrote, and
 * the expression is only ever read and written whole.
 */
import { SqlClient } from "@effect/sql/SqlClient"
import { Effect } from "effect"

const statements = [
  `CREATE TABLE usage_group_sets (
    id text PRIMARY KEY,
    organization_id text NOT NULL REFERENCES organizations (id),
    name text NOT NULL,
    name_key text NOT NULL,
    "order" integer NOT NULL CHECK ("order" >= 0),
    team_id text REFERENCES teams (id),
    etag text NOT NULL,
    created_at timestamptz NOT NULL,
    updated_at timestamptz NOT NULL
  )`,
  // name_key is the case-folded name (core's setNameKey): names are unique ignoring case.
  `CREATE UNIQUE INDEX usage_group_sets_name_per_organization ON usage_group_sets (organization_id, name_key)`,

  `CREATE TABLE usage_groups (
    id text PRIMARY KEY,
    organization_id text NOT NULL REFERENCES organizations (id),
    usage_group_set_id text NOT NULL REFERENCES usage_group_sets (id),
    name text NOT NULL,
    budget double precision CHECK (budget IS NULL OR budget >= 0),
    "order" integer NOT NULL CHECK ("order" >= 0),
    filter_expression text NOT NULL,
    etag text NOT NULL,
    created_at timestamptz NOT NULL,
    updated_at timestamptz NOT NULL
  )`,
  // Precedence order, which is also the list order and its keyset.
  `CREATE INDEX usage_groups_by_precedence ON usage_groups (usage_group_set_id, "order", created_at, id)`,

  // Scans run in a snapshot (see UsageRecordsRepo): seq only orders rows, it is not commit order here.
  `CREATE TABLE usage_records (
    seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    organization_id text NOT NULL REFERENCES organizations (id),
    start_time timestamptz NOT NULL,
    credits double precision NOT NULL,
    warehouse_name text,
    warehouse_size text,
    user_name text,
    role_name text,
    database_name text,
    schema_name text,
    query_tag text,
    query_type text,
    service_type text,
    is_serverless boolean,
    execution_time_ms double precision,
    bytes_scanned double precision,
    accessed_databases jsonb,
    tags jsonb,
    dbt_project text,
    dbt_model text,
    account_name text,
    region text,
    dw_organization_name text
  )`,
  `CREATE INDEX usage_records_by_time ON usage_records (organization_id, start_time, seq)`
]

export default Effect.flatMap(SqlClient, (sql) => Effect.forEach(statements, (statement) => sql.unsafe(statement), { discard: true }))
