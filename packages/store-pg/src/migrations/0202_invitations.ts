/** Invitations: at most one pending (not revoked) per email and organization. */
import { SqlClient } from "@effect/sql/SqlClient"
import { Effect } from "effect"

const statements = [
  `CREATE TABLE invitations (
    id text PRIMARY KEY,
    organization_id text NOT NULL REFERENCES organizations (id),
    email text NOT NULL,
    role text NOT NULL,
    invited_by text NOT NULL,
    created_at timestamptz NOT NULL,
    revoked_at timestamptz
  )`,
  `CREATE UNIQUE INDEX invitations_pending_per_email ON invitations (organization_id, lower(email)) WHERE revoked_at IS NULL`
]

export default Effect.flatMap(SqlClient, (sql) => Effect.forEach(statements, (statement) => sql.unsafe(statement), { discard: true }))
