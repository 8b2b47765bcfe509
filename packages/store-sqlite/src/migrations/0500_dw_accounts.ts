/**
 * Warehouse accounts. `sealed_private_key` holds the envelope-encrypted key as JSON (see core
 * secrets/Envelope), null until credentials are first set; `etag` makes updates compare-and-set.
 */
import { SqlClient } from "@effect/sql/SqlClient"
import { Effect } from "effect"

const statements = [
  `CREATE TABLE dw_accounts (
    id TEXT PRIMARY KEY,
    organization_id TEXT NOT NULL REFERENCES organizations (id),
    name TEXT NOT NULL,
    authentication_method TEXT NOT NULL,
    username TEXT,
    public_key_fingerprint TEXT,
    credentials_updated_at TEXT,
    sealed_private_key TEXT,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    etag TEXT NOT NULL
  ) STRICT`
]

export default Effect.flatMap(SqlClient, (sql) => Effect.forEach(statements, (statement) => sql.unsafe(statement), { discard: true }))
