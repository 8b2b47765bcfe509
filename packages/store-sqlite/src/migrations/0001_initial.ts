/**
 * The identity, teams and audit schema. Timestamps are fixed-width ISO-8601 UTC text (they sort
 * like time), JSON is text, booleans are 0/1. STRICT tables refuse values of the wrong type.
 */
import { SqlClient } from "@effect/sql/SqlClient"
import { Effect } from "effect"

const statements = [
  `CREATE TABLE installation (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    cursor_secret TEXT NOT NULL
  ) STRICT`,

  `CREATE TABLE organizations (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    settings TEXT NOT NULL,
    created_at TEXT NOT NULL
  ) STRICT`,

  `CREATE TABLE users (
    id TEXT PRIMARY KEY,
    organization_id TEXT NOT NULL REFERENCES organizations (id),
    email TEXT NOT NULL,
    created_at TEXT NOT NULL
  ) STRICT`,
  `CREATE UNIQUE INDEX users_email_per_organization ON users (organization_id, lower(email))`,

  `CREATE TABLE api_keys (
    id TEXT PRIMARY KEY,
    organization_id TEXT NOT NULL REFERENCES organizations (id),
    name TEXT NOT NULL,
    access TEXT NOT NULL,
    scopes TEXT NOT NULL,
    prefix TEXT NOT NULL,
    token_hash TEXT NOT NULL,
    created_at TEXT NOT NULL,
    expires_at TEXT,
    revoked_at TEXT
  ) STRICT`,
  `CREATE UNIQUE INDEX api_keys_by_token_hash ON api_keys (token_hash)`,

  `CREATE TABLE sessions (
    id TEXT PRIMARY KEY,
    organization_id TEXT NOT NULL REFERENCES organizations (id),
    user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    token_hash TEXT NOT NULL,
    created_at TEXT NOT NULL,
    expires_at TEXT NOT NULL,
    revoked_at TEXT
  ) STRICT`,
  `CREATE UNIQUE INDEX sessions_by_token_hash ON sessions (token_hash)`,
  `CREATE INDEX sessions_by_user ON sessions (user_id)`,

  // No foreign key on the subject: it is a user, an SSO group or a team.
  `CREATE TABLE role_assignments (
    id TEXT PRIMARY KEY,
    organization_id TEXT NOT NULL REFERENCES organizations (id),
    subject_type TEXT NOT NULL,
    subject_id TEXT NOT NULL,
    role TEXT NOT NULL,
    scope_type TEXT NOT NULL,
    scope_id TEXT,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
  ) STRICT`,
  // Serves the lookups by subject and refuses the same grant twice.
  `CREATE UNIQUE INDEX role_assignments_by_subject
    ON role_assignments (organization_id, subject_type, subject_id, role, scope_type, coalesce(scope_id, ''))`,

  `CREATE TABLE teams (
    id TEXT PRIMARY KEY,
    organization_id TEXT NOT NULL REFERENCES organizations (id),
    name TEXT NOT NULL,
    is_all_users INTEGER NOT NULL CHECK (is_all_users IN (0, 1)),
    default_member_role TEXT NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
  ) STRICT`,
  `CREATE UNIQUE INDEX teams_one_all_users ON teams (organization_id) WHERE is_all_users = 1`,

  // seq is the commit order (one writer at a time). No foreign key: the log must never refuse a
  // record, and it outlives what it describes.
  `CREATE TABLE audit_records (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    id TEXT NOT NULL,
    organization_id TEXT NOT NULL,
    changed_at TEXT NOT NULL,
    kind TEXT NOT NULL,
    resource TEXT,
    event_type TEXT,
    table_name TEXT NOT NULL,
    record_id TEXT,
    operation TEXT NOT NULL,
    status TEXT NOT NULL,
    changed_by TEXT NOT NULL,
    changed_by_type TEXT NOT NULL,
    old_values TEXT,
    new_values TEXT,
    request_id TEXT
  ) STRICT`,
  `CREATE INDEX audit_records_by_organization ON audit_records (organization_id, seq)`
]

export default Effect.flatMap(
  SqlClient,
  (sql) => Effect.forEach(statements, (statement) => sql.unsafe(statement), { discard: true })
)
