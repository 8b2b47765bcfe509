/**
 * Usage records an ingestion owns carry the key of what they measure (`query:<QUERY_ID>`,
 * `idle:<warehouse>:<hour>`), so re-ingesting replaces them instead of counting them twice.
 * Imported records keep NULL, which the partial unique index does not cover.
 */
import { SqlClient } from "@effect/sql/SqlClient"
import { Effect } from "effect"

const statements = [
  `ALTER TABLE usage_records ADD COLUMN source_key TEXT`,
  `CREATE UNIQUE INDEX usage_records_by_source_key ON usage_records (organization_id, source_key)
    WHERE source_key IS NOT NULL`
]

export default Effect.flatMap(SqlClient, (sql) => Effect.forEach(statements, (statement) => sql.unsafe(statement), { discard: true }))
