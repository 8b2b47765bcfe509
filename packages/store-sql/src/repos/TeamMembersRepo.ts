/**
 * Team memberships. A member is stored by id (a user's or an SSO group's) and read with its
 * current identifier, so renaming a mapping never leaves a stale name behind.
 */
import { Errors, Team, TeamsRepo } from "@costline/core"
import { Effect, Layer, Schema, Struct } from "effect"
import { DbDateTime, isoText } from "../Columns.js"
import { afterPosition, makeCount, windowOrder } from "./Listing.js"
import { RepoContext } from "./RepoContext.js"

const StoredRow = Schema.Struct({ ...Struct.omit(Team.TeamMember.fields, "identifier"), added_at: DbDateTime })
const MemberRow = Schema.Struct({ ...StoredRow.fields, identifier: Schema.String })

export const make = Effect.gen(function*() {
  const context = yield* RepoContext
  const { errors, reader, recoverableWrite, sql, write } = context
  const members = reader(MemberRow, (row) => new Team.TeamMember(row))
  const stored = reader(StoredRow, (row) => row)
  const count = makeCount(context)
  const storedColumns = sql.literal("id, team_id, member_type AS type, subject_id, role, added_at")

  return TeamsRepo.TeamMembersRepo.of({
    insert: (organizationId, member) =>
      recoverableWrite(
        sql`INSERT INTO team_members ${
          sql.insert({
            id: member.id,
            organization_id: organizationId,
            team_id: member.team_id,
            member_type: member.type,
            subject_id: member.subject_id,
            role: member.role,
            added_at: isoText(member.added_at)
          })
        }`.pipe(Effect.asVoid, errors.uniqueAs(() => new Errors.AlreadyExists({ message: "already a member of the team" })))
      ),
    list: (organizationId, teamId, window) =>
      members.all(
        sql`SELECT m.id, m.team_id, m.member_type AS type, m.subject_id, m.role, m.added_at,
                   COALESCE(u.email, g.name, m.subject_id) AS identifier
            FROM team_members m
            LEFT JOIN users u ON m.member_type = 'user' AND u.id = m.subject_id
            LEFT JOIN sso_groups g ON m.member_type = 'sso_group' AND g.id = m.subject_id
            WHERE ${
          sql.and([
            sql`m.organization_id = ${organizationId}`,
            sql`m.team_id = ${teamId}`,
            ...afterPosition(sql, window, "m.added_at", "m.id")
          ])
        }
            ${windowOrder(sql, window, "m.added_at", "m.id")}`
      ),
    count: (organizationId, teamId) =>
      count(sql`SELECT count(*) AS count FROM team_members WHERE organization_id = ${organizationId} AND team_id = ${teamId}`),
    deleteForUser: (organizationId, userId) =>
      write(
        stored.all(
          sql`DELETE FROM team_members
              WHERE organization_id = ${organizationId} AND member_type = 'user' AND subject_id = ${userId}
              RETURNING ${storedColumns}`
        )
      )
  })
})

export const layer = Layer.effect(TeamsRepo.TeamMembersRepo, make)
