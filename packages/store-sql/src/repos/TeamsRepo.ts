/** Teams. At most one all-users team per organization, enforced by a partial unique index. */
import { Errors, Team, TeamsRepo } from "@costline/core"
import { Effect, Layer, Schema } from "effect"
import { DbBoolean, DbDateTime, isoText } from "../Columns.js"
import { RepoContext } from "./RepoContext.js"

const TeamRow = Schema.Struct({
  ...Team.Team.fields,
  is_all_users: DbBoolean,
  created_at: DbDateTime,
  updated_at: DbDateTime
})

export const make = Effect.gen(function*() {
  const { dialect, errors, reader, recoverableWrite, sql, write } = yield* RepoContext
  const teams = reader(TeamRow, (row) => new Team.Team(row))
  const columns = sql.literal("id, organization_id, name, is_all_users, default_member_role, created_at, updated_at, etag")

  return TeamsRepo.TeamsRepo.of({
    insert: (team) =>
      recoverableWrite(
        sql`INSERT INTO teams ${
          sql.insert({
            id: team.id,
            organization_id: team.organization_id,
            name: team.name,
            is_all_users: dialect.boolean(team.is_all_users),
            default_member_role: team.default_member_role,
            created_at: isoText(team.created_at),
            updated_at: isoText(team.updated_at),
            etag: team.etag
          })
        }`.pipe(
          Effect.asVoid,
          errors.uniqueAs(() => new Errors.AlreadyExists({ message: "the organization already has an all-users team" }))
        )
      ),
    findById: (organizationId, id) =>
      teams.first(sql`SELECT ${columns} FROM teams WHERE organization_id = ${organizationId} AND id = ${id}`),
    // The compare-and-set: the row changes only if it still has the ETag the caller read.
    update: (team, expected) =>
      write(
        sql`UPDATE teams
            SET name = ${team.name}, default_member_role = ${team.default_member_role}, updated_at = ${isoText(team.updated_at)},
              etag = ${team.etag}
            WHERE organization_id = ${team.organization_id} AND id = ${team.id} AND etag = ${expected.etag}
            RETURNING id`.pipe(Effect.map((rows) => rows.length > 0), errors.orUnavailable)
      ),
    findAllUsers: (organizationId) =>
      teams.first(
        sql`SELECT ${columns} FROM teams WHERE organization_id = ${organizationId} AND is_all_users = ${dialect.boolean(true)}`
      ),
    listForUser: (organizationId, userId) =>
      teams.all(
        sql`SELECT ${columns} FROM teams
            WHERE organization_id = ${organizationId}
              AND (is_all_users = ${dialect.boolean(true)} OR id IN (
                SELECT team_id FROM team_members
                WHERE organization_id = ${organizationId} AND member_type = 'user' AND subject_id = ${userId}))
            ORDER BY created_at, id`
      )
  })
})

export const layer = Layer.effect(TeamsRepo.TeamsRepo, make)
