/**
 * Staged cost-intelligence ingestions (see core's DwIngest), registered in `usage_imports` like
 * usage imports, with `keyed`: an ingestion stages its usage records (rows with its
 * `import_id`, invisible until it is published) and marks the published records it replaces with
 * `replaced_by`; such a record stays visible while that ingestion is pending and disappears with
 * its publication (and is then deleted). So the staged rows share their `source_key` with the
 * records they replace until then: the key's unique index becomes a plain one, and at most one
 * keyed ingestion per organization is pending at a time (the partial unique index), which keeps
 * the visible keys unique.
 */
import { SqlClient } from "@effect/sql/SqlClient"
import { Effect } from "effect"

const statements = [
  `ALTER TABLE usage_imports ADD COLUMN keyed boolean NOT NULL DEFAULT false`,
  `CREATE UNIQUE INDEX usage_imports_one_keyed ON usage_imports (organization_id) WHERE keyed`,
  `ALTER TABLE usage_records ADD COLUMN replaced_by text`,
  `CREATE INDEX usage_records_by_replaced_by ON usage_records (replaced_by) WHERE replaced_by IS NOT NULL`,
  `DROP INDEX usage_records_by_source_key`,
  `CREATE INDEX usage_records_by_source_key ON usage_records (organization_id, source_key) WHERE source_key IS NOT NULL`
]

export default Effect.flatMap(SqlClient, (sql) => Effect.forEach(statements, (statement) => sql.unsafe(statement), { discard: true }))
