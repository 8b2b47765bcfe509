/**
 * Team memberships. The member is a user or an SSO group (no foreign key on the subject, as in
 * role_assignments); a team lists each at most once. Users are listed by (created_at, id) as the
 * implicit members of the all-users team.
 */
import { SqlClient } from "@effect/sql/SqlClient"
import { Effect } from "effect"

const statements = [
  `CREATE TABLE team_members (
    id TEXT PRIMARY KEY,
    organization_id TEXT NOT NULL REFERENCES organizations (id),
    team_id TEXT NOT NULL REFERENCES teams (id),
    member_type TEXT NOT NULL CHECK (member_type IN ('user', 'sso_group')),
    subject_id TEXT NOT NULL,
    role TEXT NOT NULL,
    added_at TEXT NOT NULL
  ) STRICT`,
  `CREATE UNIQUE INDEX team_members_once_per_team ON team_members (team_id, member_type, subject_id)`,
  // The member list's keyset order.
  `CREATE INDEX team_members_by_team ON team_members (organization_id, team_id, added_at, id)`,
  // The teams of a user (roles they inherit), and removing a user from every team.
  `CREATE INDEX team_members_by_subject ON team_members (organization_id, member_type, subject_id)`,
  `CREATE INDEX users_by_creation ON users (organization_id, created_at, id)`
]

export default Effect.flatMap(SqlClient, (sql) => Effect.forEach(statements, (statement) => sql.unsafe(statement), { discard: true }))
