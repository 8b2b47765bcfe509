/** SSO group mappings: names unique per organization, compared exactly; listed by (created_at, id). */
import { SqlClient } from "@effect/sql/SqlClient"
import { Effect } from "effect"

const statements = [
  `CREATE TABLE sso_groups (
    id TEXT PRIMARY KEY,
    organization_id TEXT NOT NULL REFERENCES organizations (id),
    name TEXT NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
  ) STRICT`,
  `CREATE UNIQUE INDEX sso_groups_name_per_organization ON sso_groups (organization_id, name)`,
  `CREATE INDEX sso_groups_by_creation ON sso_groups (organization_id, created_at, id)`
]

export default Effect.flatMap(SqlClient, (sql) => Effect.forEach(statements, (statement) => sql.unsafe(statement), { discard: true }))
