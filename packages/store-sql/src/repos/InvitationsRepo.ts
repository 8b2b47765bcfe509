/** Invitations; at most one pending per email and organization (a partial unique index). */
import { AlreadyExists, Invitation, InvitationsRepo } from "@costline/core"
import { Effect, Layer, Option, Schema } from "effect"
import { DbDateTime, isoText, isoTextOrNull } from "../Columns.js"
import { RepoContext } from "./RepoContext.js"

const InvitationRow = Schema.Struct({
  ...Invitation.fields,
  created_at: DbDateTime,
  revoked_at: Schema.NullOr(DbDateTime)
})

export const make = Effect.gen(function*() {
  const { errors, reader, sql, write } = yield* RepoContext
  const invitations = reader(InvitationRow, (row) => new Invitation(row))
  const columns = sql.literal("id, organization_id, email, role, invited_by, created_at, revoked_at")

  return InvitationsRepo.of({
    insert: (invitation) =>
      write(
        sql`INSERT INTO invitations ${
          sql.insert({
            id: invitation.id,
            organization_id: invitation.organization_id,
            email: invitation.email,
            role: invitation.role,
            invited_by: invitation.invited_by,
            created_at: isoText(invitation.created_at),
            revoked_at: isoTextOrNull(invitation.revoked_at)
          })
        }`.pipe(
          Effect.asVoid,
          errors.uniqueAs(() => new AlreadyExists({ message: `${invitation.email} already has a pending invitation` }))
        )
      ),
    // RETURNING shows the row as updated; the caller wants it as it was, which differs only there.
    revoke: (organizationId, id, at) =>
      write(
        invitations.first(
          sql`UPDATE invitations SET revoked_at = ${isoText(at)}
              WHERE organization_id = ${organizationId} AND id = ${id} AND revoked_at IS NULL
              RETURNING ${columns}`
        ).pipe(Effect.map(Option.map((revoked) => new Invitation({ ...revoked, revoked_at: null }))))
      ),
    listPending: (organizationId) =>
      invitations.all(
        sql`SELECT ${columns} FROM invitations WHERE organization_id = ${organizationId} AND revoked_at IS NULL
            ORDER BY created_at, id`
      )
  })
})

export const layer = Layer.effect(InvitationsRepo, make)
