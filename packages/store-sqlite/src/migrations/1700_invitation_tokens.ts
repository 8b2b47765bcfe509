/**
 * Invitations can be accepted: a token (stored as its hash), an expiry, the acceptance time, and
 * the inviter's kind and id (acceptance re-checks that the inviter may still grant the role).
 * Invitations made before keep no token and no expiry: they stay listed and revocable, never
 * acceptable. One open invitation per email now means neither revoked nor accepted.
 */
import { SqlClient } from "@effect/sql/SqlClient"
import { Effect } from "effect"

const statements = [
  `ALTER TABLE invitations ADD COLUMN token_hash TEXT`,
  `ALTER TABLE invitations ADD COLUMN expires_at TEXT`,
  `ALTER TABLE invitations ADD COLUMN accepted_at TEXT`,
  `ALTER TABLE invitations ADD COLUMN inviter_type TEXT NOT NULL DEFAULT 'system'`,
  `ALTER TABLE invitations ADD COLUMN inviter_id TEXT`,
  // The audit log's names of the inviter (`system`, `api_key:<name>`, an email) tell its kind.
  `UPDATE invitations SET inviter_type = CASE
     WHEN invited_by = 'system' THEN 'system' WHEN invited_by LIKE 'api_key:%' THEN 'api_key' ELSE 'user' END`,
  `CREATE UNIQUE INDEX invitations_token_hash ON invitations (token_hash)`,
  `DROP INDEX invitations_pending_per_email`,
  `CREATE UNIQUE INDEX invitations_open_per_email ON invitations (organization_id, lower(email))
     WHERE revoked_at IS NULL AND accepted_at IS NULL`
]

export default Effect.flatMap(SqlClient, (sql) => Effect.forEach(statements, (statement) => sql.unsafe(statement), { discard: true }))
