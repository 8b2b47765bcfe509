/** API keys, stored with the SHA-256 hash of their token (never the token). */
import { Identity, IdentityRepo } from "@costline/core"
import { Effect, Layer } from "effect"
import { isoText, isoTextOrNull, jsonText, TrustedColumn, trustedRow } from "../Columns.js"
import { RepoContext } from "./RepoContext.js"

/** Read on every authenticated request, written only here from validated keys: not re-validated. */
const toApiKey = trustedRow(
  Identity.ApiKey,
  {
    scopes: TrustedColumn.json,
    created_at: TrustedColumn.dateTime,
    expires_at: TrustedColumn.nullableDateTime,
    revoked_at: TrustedColumn.nullableDateTime,
    last_used_at: TrustedColumn.nullableDateTime
  }
)

export const make = Effect.gen(function*() {
  const { errors, sql, trustedReader, write } = yield* RepoContext
  const apiKeys = trustedReader(toApiKey)
  const columns = sql.literal("id, organization_id, name, access, scopes, prefix, created_at, expires_at, revoked_at, last_used_at")

  return IdentityRepo.ApiKeysRepo.of({
    // The hash is random and unique by construction: a collision would be a bug, hence no AlreadyExists.
    insert: (key, tokenHash) =>
      write(
        sql`INSERT INTO api_keys ${
          sql.insert({
            id: key.id,
            organization_id: key.organization_id,
            name: key.name,
            access: key.access,
            scopes: jsonText(key.scopes),
            prefix: key.prefix,
            token_hash: tokenHash,
            created_at: isoText(key.created_at),
            expires_at: isoTextOrNull(key.expires_at),
            revoked_at: isoTextOrNull(key.revoked_at),
            last_used_at: isoTextOrNull(key.last_used_at)
          })
        }`.pipe(Effect.asVoid, errors.orUnavailable)
      ),
    findByHash: (tokenHash) => apiKeys.first(sql`SELECT ${columns} FROM api_keys WHERE token_hash = ${tokenHash}`),
    findById: (organizationId, id) =>
      apiKeys.first(sql`SELECT ${columns} FROM api_keys WHERE organization_id = ${organizationId} AND id = ${id}`),
    list: (organizationId) =>
      apiKeys.all(
        sql`SELECT ${columns} FROM api_keys WHERE organization_id = ${organizationId} ORDER BY created_at, id`
      ),
    // Conditional, so a busy key costs one write per interval, not one per request.
    touch: (id, at, since) =>
      write(
        sql`UPDATE api_keys SET last_used_at = ${isoText(at)}
            WHERE id = ${id} AND (last_used_at IS NULL OR last_used_at < ${isoText(since)})`.pipe(
          Effect.asVoid,
          errors.orUnavailable
        )
      ),
    revoke: (organizationId, id, at) =>
      write(
        sql`UPDATE api_keys SET revoked_at = ${isoText(at)}
            WHERE organization_id = ${organizationId} AND id = ${id} AND revoked_at IS NULL
            RETURNING id`.pipe(Effect.map((rows) => rows.length > 0), errors.orUnavailable)
      )
  })
})

export const layer = Layer.effect(IdentityRepo.ApiKeysRepo, make)
