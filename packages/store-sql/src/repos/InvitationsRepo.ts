/**
 * Invitations; at most one open (neither revoked nor accepted) per email and organization, a
 * partial unique index. Tokens are stored as their hash; acceptance is one compare-and-set.
 */
import { Errors, IdentityRepo, Invitation } from "@costline/core"
import { Effect, Layer, Option, Schema } from "effect"
import { DbDateTime, isoText, isoTextOrNull } from "../Columns.js"
import { RepoContext } from "./RepoContext.js"

const InvitationRow = Schema.Struct({
  ...Invitation.Invitation.fields,
  created_at: DbDateTime,
  expires_at: Schema.NullOr(DbDateTime),
  revoked_at: Schema.NullOr(DbDateTime),
  accepted_at: Schema.NullOr(DbDateTime)
})

export const make = Effect.gen(function*() {
  const { errors, reader, recoverableWrite, sql, write } = yield* RepoContext
  const invitations = reader(InvitationRow, (row) => new Invitation.Invitation(row))
  const columns = sql.literal(
    "id, organization_id, email, role, invited_by, inviter_type, inviter_id, created_at, expires_at, revoked_at, accepted_at"
  )
  const open = sql.literal("revoked_at IS NULL AND accepted_at IS NULL")

  return IdentityRepo.InvitationsRepo.of({
    insert: (invitation, tokenHash) =>
      recoverableWrite(
        sql`INSERT INTO invitations ${
          sql.insert({
            id: invitation.id,
            organization_id: invitation.organization_id,
            email: invitation.email,
            role: invitation.role,
            invited_by: invitation.invited_by,
            inviter_type: invitation.inviter_type,
            inviter_id: invitation.inviter_id,
            token_hash: tokenHash,
            created_at: isoText(invitation.created_at),
            expires_at: isoTextOrNull(invitation.expires_at),
            revoked_at: isoTextOrNull(invitation.revoked_at),
            accepted_at: isoTextOrNull(invitation.accepted_at)
          })
        }`.pipe(
          Effect.asVoid,
          errors.uniqueAs(() => new Errors.AlreadyExists({ message: `${invitation.email} already has a pending invitation` }))
        )
      ),
    // RETURNING shows a row as updated; the callers want it as it was, which differs only there.
    revoke: (organizationId, id, at) =>
      write(
        invitations.first(
          sql`UPDATE invitations SET revoked_at = ${isoText(at)}
              WHERE organization_id = ${organizationId} AND id = ${id} AND ${open}
              RETURNING ${columns}`
        ).pipe(Effect.map(Option.map((revoked) => new Invitation.Invitation({ ...revoked, revoked_at: null }))))
      ),
    revokeExpired: (organizationId, email, at) =>
      write(
        invitations.all(
          sql`UPDATE invitations SET revoked_at = ${isoText(at)}
              WHERE organization_id = ${organizationId} AND lower(email) = ${email.toLowerCase()} AND ${open}
                AND expires_at <= ${isoText(at)}
              RETURNING ${columns}`
        ).pipe(Effect.map((rows) => rows.map((revoked) => new Invitation.Invitation({ ...revoked, revoked_at: null }))))
      ),
    accept: (organizationId, tokenHash, email, at) =>
      write(
        invitations.first(
          sql`UPDATE invitations SET accepted_at = ${isoText(at)}
              WHERE organization_id = ${organizationId} AND token_hash = ${tokenHash} AND lower(email) = ${email.toLowerCase()}
                AND ${open} AND expires_at > ${isoText(at)}
              RETURNING ${columns}`
        ).pipe(Effect.map(Option.map((accepted) => new Invitation.Invitation({ ...accepted, accepted_at: null }))))
      ),
    listPending: (organizationId, at) =>
      invitations.all(
        sql`SELECT ${columns} FROM invitations
            WHERE organization_id = ${organizationId} AND ${open} AND (expires_at IS NULL OR expires_at > ${isoText(at)})
            ORDER BY created_at, id`
      )
  })
})

export const layer = Layer.effect(IdentityRepo.InvitationsRepo, make)
