/**
 * Staged usage imports (see core's UsageImport): an import writes its rows in short transactions,
 * each tagged with its `import_id`, and they stay invisible to scans while the import has a row
 * in `usage_imports`; deleting that row publishes them all at once. `heartbeat_at` is renewed
 * by every batch: an import whose heartbeat is old belongs to a process that died, and its rows
 * are discarded by the next import. `floor_seq` is below the `seq` of every row the import
 * stages (the highest `seq` when it began), so discarding walks the rows from there, no index needed.
 */
import { SqlClient } from "@effect/sql/SqlClient"
import { Effect } from "effect"

const statements = [
  `CREATE TABLE usage_imports (
    id text PRIMARY KEY,
    organization_id text NOT NULL REFERENCES organizations (id),
    floor_seq bigint NOT NULL,
    started_at timestamptz NOT NULL,
    heartbeat_at timestamptz NOT NULL
  )`,
  `ALTER TABLE usage_records ADD COLUMN import_id text`
]

export default Effect.flatMap(SqlClient, (sql) => Effect.forEach(statements, (statement) => sql.unsafe(statement), { discard: true }))
