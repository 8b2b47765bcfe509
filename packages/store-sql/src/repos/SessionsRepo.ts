/** User sessions, stored with the SHA-256 hash of their token (never the token). */
import { Identity, IdentityRepo } from "@costline/core"
import type { Ids } from "@costline/core"
import { Effect, Layer, Schema } from "effect"
import { DbDateTime, isoText, isoTextOrNull } from "../Columns.js"
import { RepoContext } from "./RepoContext.js"

const SessionRow = Schema.Struct({
  ...Identity.Session.fields,
  created_at: DbDateTime,
  expires_at: DbDateTime,
  revoked_at: Schema.NullOr(DbDateTime)
})

export const make = Effect.gen(function*() {
  const { errors, reader, sql, write } = yield* RepoContext
  const sessions = reader(SessionRow, (row) => new Identity.Session(row))
  const countRows = Effect.map((rows: ReadonlyArray<unknown>) => rows.length)

  return IdentityRepo.SessionsRepo.of({
    insert: (session, tokenHash) =>
      write(
        sql`INSERT INTO sessions ${
          sql.insert({
            id: session.id,
            organization_id: session.organization_id,
            user_id: session.user_id,
            token_hash: tokenHash,
            created_at: isoText(session.created_at),
            expires_at: isoText(session.expires_at),
            revoked_at: isoTextOrNull(session.revoked_at)
          })
        }`.pipe(Effect.asVoid, errors.orUnavailable)
      ),
    findByHash: (tokenHash) =>
      sessions.first(
        sql`SELECT id, organization_id, user_id, created_at, expires_at, revoked_at
            FROM sessions WHERE token_hash = ${tokenHash}`
      ),
    revoke: (id, at) =>
      write(
        sql`UPDATE sessions SET revoked_at = ${isoText(at)} WHERE id = ${id} AND revoked_at IS NULL RETURNING id`.pipe(
          countRows,
          Effect.map((count) => count > 0),
          errors.orUnavailable
        )
      ),
    revokeAllForUser: (organizationId, userId, at) =>
      write(
        sql`UPDATE sessions SET revoked_at = ${isoText(at)}
            WHERE organization_id = ${organizationId} AND user_id = ${userId} AND revoked_at IS NULL
            RETURNING id`.pipe(
          Effect.map((rows) => rows.map((row) => (row as { readonly id: Ids.SessionId }).id)),
          errors.orUnavailable
        )
      )
  })
})

export const layer = Layer.effect(IdentityRepo.SessionsRepo, make)
