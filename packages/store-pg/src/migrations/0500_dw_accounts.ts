/**
 * Warehouse accounts. `sealed_private_key` holds the envelope-encrypted key as jsonb (see core
 * secrets/Envelope), null until credentials are first set; `etag` makes updates compare-and-set.
 */
import { SqlClient } from "@effect/sql/SqlClient"
import { Effect } from "effect"

const statements = [
  `CREATE TABLE dw_accounts (
    id text PRIMARY KEY,
    organization_id text NOT NULL REFERENCES organizations (id),
    name text NOT NULL,
    authentication_method text NOT NULL,
    username text,
    public_key_fingerprint text,
    credentials_updated_at timestamptz,
    sealed_private_key jsonb,
    created_at timestamptz NOT NULL,
    updated_at timestamptz NOT NULL,
    etag text NOT NULL
  )`
]

export default Effect.flatMap(SqlClient, (sql) => Effect.forEach(statements, (statement) => sql.unsafe(statement), { discard: true }))
