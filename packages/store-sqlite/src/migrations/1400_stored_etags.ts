/**
 * Teams and SSO group mappings store their ETag, as every other versioned aggregate does, so one
 * compare-and-set on `etag` guards every conditional write. Existing rows get the ETag core
 * computes for them, so the values clients hold stay valid.
 */
import { SsoGroups, Teams } from "@costline/core"
import { SqlClient } from "@effect/sql/SqlClient"
import { Effect } from "effect"

interface TeamRow {
  readonly id: string
  readonly name: string
  readonly is_all_users: number
  readonly default_member_role: "admin" | "editor" | "viewer"
}

export default Effect.gen(function*() {
  const sql = yield* SqlClient
  yield* sql.unsafe(`ALTER TABLE teams ADD COLUMN etag TEXT NOT NULL DEFAULT ''`)
  yield* sql.unsafe(`ALTER TABLE sso_groups ADD COLUMN etag TEXT NOT NULL DEFAULT ''`)
  for (const team of yield* sql<TeamRow>`SELECT id, name, is_all_users, default_member_role FROM teams`) {
    const etag = Teams.teamEtag({ ...team, is_all_users: team.is_all_users === 1 })
    yield* sql`UPDATE teams SET etag = ${etag} WHERE id = ${team.id}`
  }
  for (const group of yield* sql<{ readonly id: string; readonly name: string }>`SELECT id, name FROM sso_groups`) {
    yield* sql`UPDATE sso_groups SET etag = ${SsoGroups.ssoGroupEtag(group)} WHERE id = ${group.id}`
  }
})
