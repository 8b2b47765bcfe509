/** Roles granted to users, SSO groups and teams. The same grant twice is a duplicate. */
import { Errors, IdentityRepo, RoleAssignment } from "@costline/core"
import { Effect, Layer, Schema } from "effect"
import { DbDateTime, isoText } from "../Columns.js"
import { RepoContext } from "./RepoContext.js"
import { afterPosition, makeCount, windowOrder } from "./Listing.js"

const RoleAssignmentRow = Schema.Struct({ ...RoleAssignment.RoleAssignment.fields, created_at: DbDateTime, updated_at: DbDateTime })

export const make = Effect.gen(function*() {
  const context = yield* RepoContext
  const { errors, reader, recoverableWrite, sql, write } = context
  const assignments = reader(RoleAssignmentRow, (row) => new RoleAssignment.RoleAssignment(row))
  const count = makeCount(context)
  const columns = sql.literal(
    "id, organization_id, subject_type, subject_id, role, scope_type, scope_id, created_at, updated_at"
  )

  const ofSubject = (organizationId: string, subjectType: string, subjectId: string) =>
    sql`organization_id = ${organizationId} AND subject_type = ${subjectType} AND subject_id = ${subjectId}`

  return IdentityRepo.RoleAssignmentsRepo.of({
    insert: (assignment) =>
      recoverableWrite(
        sql`INSERT INTO role_assignments ${
          sql.insert({
            id: assignment.id,
            organization_id: assignment.organization_id,
            subject_type: assignment.subject_type,
            subject_id: assignment.subject_id,
            role: assignment.role,
            scope_type: assignment.scope_type,
            scope_id: assignment.scope_id,
            created_at: isoText(assignment.created_at),
            updated_at: isoText(assignment.updated_at)
          })
        }`.pipe(
          Effect.asVoid,
          errors.uniqueAs(() => new Errors.AlreadyExists({ message: `the ${assignment.role} role is already granted` }))
        )
      ),
    listForSubject: (organizationId, subjectType, subjectId) =>
      assignments.all(
        sql`SELECT ${columns} FROM role_assignments WHERE ${ofSubject(organizationId, subjectType, subjectId)}
            ORDER BY created_at, id`
      ),
    listForSubjects: (organizationId, subjectType, subjectIds) =>
      subjectIds.length === 0
        ? Effect.succeed([])
        : assignments.all(
          sql`SELECT ${columns} FROM role_assignments
              WHERE organization_id = ${organizationId} AND subject_type = ${subjectType}
                AND ${sql.in("subject_id", subjectIds)}
              ORDER BY created_at, id`
        ),
    listWindow: (organizationId, subjectType, subjectId, window) =>
      assignments.all(
        sql`SELECT ${columns} FROM role_assignments
            WHERE ${sql.and([ofSubject(organizationId, subjectType, subjectId), ...afterPosition(sql, window, "created_at", "id")])}
            ${windowOrder(sql, window, "created_at", "id")}`
      ),
    countForSubject: (organizationId, subjectType, subjectId) =>
      count(sql`SELECT count(*) AS count FROM role_assignments WHERE ${ofSubject(organizationId, subjectType, subjectId)}`),
    findById: (organizationId, id) =>
      assignments.first(sql`SELECT ${columns} FROM role_assignments WHERE organization_id = ${organizationId} AND id = ${id}`),
    deleteById: (organizationId, id) =>
      write(
        assignments.first(
          sql`DELETE FROM role_assignments WHERE organization_id = ${organizationId} AND id = ${id} RETURNING ${columns}`
        )
      ),
    deleteForSubject: (organizationId, subjectType, subjectId) =>
      write(
        assignments.all(
          sql`DELETE FROM role_assignments WHERE ${ofSubject(organizationId, subjectType, subjectId)} RETURNING ${columns}`
        )
      )
  })
})

export const layer = Layer.effect(IdentityRepo.RoleAssignmentsRepo, make)
