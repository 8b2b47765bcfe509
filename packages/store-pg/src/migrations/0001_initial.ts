/**
 * The identity, teams and audit schema. Ids are text (an id filter with a malformed UUID must
 * match nothing, not fail), timestamps timestamptz, JSON jsonb.
 */
import { SqlClient } from "@effect/sql/SqlClient"
import { Effect } from "effect"

const statements = [
  `CREATE TABLE installation (
    id integer PRIMARY KEY CHECK (id = 1),
    cursor_secret text NOT NULL
  )`,

  `CREATE TABLE organizations (
    id text PRIMARY KEY,
    name text NOT NULL,
    settings jsonb NOT NULL,
    created_at timestamptz NOT NULL
  )`,

  `CREATE TABLE users (
    id text PRIMARY KEY,
    organization_id text NOT NULL REFERENCES organizations (id),
    email text NOT NULL,
    created_at timestamptz NOT NULL
  )`,
  `CREATE UNIQUE INDEX users_email_per_organization ON users (organization_id, lower(email))`,

  `CREATE TABLE api_keys (
    id text PRIMARY KEY,
    organization_id text NOT NULL REFERENCES organizations (id),
    name text NOT NULL,
    access text NOT NULL,
    scopes jsonb NOT NULL,
    prefix text NOT NULL,
    token_hash text NOT NULL,
    created_at timestamptz NOT NULL,
    expires_at timestamptz,
    revoked_at timestamptz
  )`,
  `CREATE UNIQUE INDEX api_keys_by_token_hash ON api_keys (token_hash)`,

  `CREATE TABLE sessions (
    id text PRIMARY KEY,
    organization_id text NOT NULL REFERENCES organizations (id),
    user_id text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    token_hash text NOT NULL,
    created_at timestamptz NOT NULL,
    expires_at timestamptz NOT NULL,
    revoked_at timestamptz
  )`,
  `CREATE UNIQUE INDEX sessions_by_token_hash ON sessions (token_hash)`,
  `CREATE INDEX sessions_by_user ON sessions (user_id)`,

  // No foreign key on the subject: it is a user, an SSO group or a team.
  `CREATE TABLE role_assignments (
    id text PRIMARY KEY,
    organization_id text NOT NULL REFERENCES organizations (id),
    subject_type text NOT NULL,
    subject_id text NOT NULL,
    role text NOT NULL,
    scope_type text NOT NULL,
    scope_id text,
    created_at timestamptz NOT NULL,
    updated_at timestamptz NOT NULL
  )`,
  // Serves the lookups by subject and refuses the same grant twice.
  `CREATE UNIQUE INDEX role_assignments_by_subject
    ON role_assignments (organization_id, subject_type, subject_id, role, scope_type, coalesce(scope_id, ''))`,

  `CREATE TABLE teams (
    id text PRIMARY KEY,
    organization_id text NOT NULL REFERENCES organizations (id),
    name text NOT NULL,
    is_all_users boolean NOT NULL,
    default_member_role text NOT NULL,
    created_at timestamptz NOT NULL,
    updated_at timestamptz NOT NULL
  )`,
  `CREATE UNIQUE INDEX teams_one_all_users ON teams (organization_id) WHERE is_all_users`,

  // xid orders rows by transaction, seq within one (see PgDialect). No foreign key: the log must
  // never refuse a record, and it outlives what it describes.
  `CREATE TABLE audit_records (
    seq bigserial PRIMARY KEY,
    xid xid8 NOT NULL DEFAULT pg_current_xact_id(),
    id text NOT NULL,
    organization_id text NOT NULL,
    changed_at timestamptz NOT NULL,
    kind text NOT NULL,
    resource text,
    event_type text,
    table_name text NOT NULL,
    record_id text,
    operation text NOT NULL,
    status text NOT NULL,
    changed_by text NOT NULL,
    changed_by_type text NOT NULL,
    old_values jsonb,
    new_values jsonb,
    request_id text
  )`,
  `CREATE INDEX audit_records_by_organization ON audit_records (organization_id, xid, seq)`
]

export default Effect.flatMap(
  SqlClient,
  (sql) => Effect.forEach(statements, (statement) => sql.unsafe(statement), { discard: true })
)
