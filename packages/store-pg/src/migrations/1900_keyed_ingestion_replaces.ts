/**
 * Whether a keyed ingestion has anything to replace: set when it begins, from whether its
 * organization has any keyed usage record then. Postgres marks the records an ingestion replaces
 * after its last staged batch (KeyedUsageRepo's `seal`), a probe per staged key; an organization's
 * first ingestion, which replaces nothing, skips that. No other keyed ingestion of the
 * organization can publish while this one is pending (usage_imports_one_keyed), and usage imports
 * write no keys, so `false` stays true until it is published.
 */
import { SqlClient } from "@effect/sql/SqlClient"
import { Effect } from "effect"

const statements = [
  `ALTER TABLE usage_imports ADD COLUMN replaces_keys boolean NOT NULL DEFAULT true`
]

export default Effect.flatMap(SqlClient, (sql) => Effect.forEach(statements, (statement) => sql.unsafe(statement), { discard: true }))
