/**
 * Warehouse accounts. The sealed private key lives in its own column, `sealed_private_key`, which
 * only `findCredentials` reads; updates are compare-and-set on the stored etag.
 */
import { DwAccount, DwAccountsRepo, Envelope } from "@costline/core"
import { Effect, Layer, Option, Schema } from "effect"
import { DbDateTime, dbJson, isoText, isoTextOrNull, jsonText } from "../Columns.js"
import { RepoContext } from "./RepoContext.js"

const DwAccountRow = Schema.Struct({
  ...DwAccount.DwAccount.fields,
  credentials_updated_at: Schema.NullOr(DbDateTime),
  created_at: DbDateTime,
  updated_at: DbDateTime
})

const SealedRow = Schema.Struct({ sealed_private_key: Schema.NullOr(dbJson(Envelope.SealedSecret)) })

const SealedCredentialsRow = Schema.Struct({
  organization_id: DwAccount.DwAccount.fields.organization_id,
  id: DwAccount.DwAccount.fields.id,
  sealed_private_key: dbJson(Envelope.SealedSecret)
})

/** The columns every write sets from the account; the key column only when a key is given. */
const accountColumns = (account: DwAccount.DwAccount) => ({
  name: account.name,
  authentication_method: account.authentication_method,
  username: account.username,
  public_key_fingerprint: account.public_key_fingerprint,
  credentials_updated_at: isoTextOrNull(account.credentials_updated_at),
  updated_at: isoText(account.updated_at),
  etag: account.etag
})

const sealedColumn = (sealed: Envelope.SealedSecret) => ({ sealed_private_key: jsonText(Schema.encodeSync(Envelope.SealedSecret)(sealed)) })

export const make = Effect.gen(function*() {
  const { errors, reader, sql, write } = yield* RepoContext
  const accounts = reader(DwAccountRow, (row) => new DwAccount.DwAccount(row))
  const sealedKeys = reader(SealedRow, (row) => Option.fromNullable(row.sealed_private_key))
  const sealedCredentials = reader(
    SealedCredentialsRow,
    (row): DwAccountsRepo.SealedCredentials => ({ organization_id: row.organization_id, id: row.id, sealed: row.sealed_private_key })
  )
  const columns = sql.literal(
    "id, organization_id, name, authentication_method, username, public_key_fingerprint, " +
      "credentials_updated_at, created_at, updated_at, etag"
  )

  return DwAccountsRepo.DwAccountsRepo.of({
    insert: (account) =>
      write(
        sql`INSERT INTO dw_accounts ${
          sql.insert({
            id: account.id,
            organization_id: account.organization_id,
            created_at: isoText(account.created_at),
            ...accountColumns(account)
          })
        }`.pipe(Effect.asVoid, errors.orUnavailable)
      ),
    findById: (organizationId, id) =>
      accounts.first(sql`SELECT ${columns} FROM dw_accounts WHERE organization_id = ${organizationId} AND id = ${id}`),
    // One statement checks the etag and writes: of two writers that read the same etag, one wins.
    update: (account, change) =>
      write(
        sql`UPDATE dw_accounts
            SET ${sql.update({ ...accountColumns(account), ...(change.credentials ? sealedColumn(change.credentials) : {}) })}
            WHERE organization_id = ${account.organization_id} AND id = ${account.id} AND etag = ${change.expectedEtag}
            RETURNING id`.pipe(Effect.map((rows) => rows.length > 0), errors.orUnavailable)
      ),
    findCredentials: (organizationId, id) =>
      sealedKeys.first(
        sql`SELECT sealed_private_key FROM dw_accounts WHERE organization_id = ${organizationId} AND id = ${id}`
      ).pipe(Effect.map(Option.flatten)),
    listSealed: (after, limit) =>
      sealedCredentials.all(
        sql`SELECT organization_id, id, sealed_private_key FROM dw_accounts
            WHERE sealed_private_key IS NOT NULL${
          Option.match(after, {
            onNone: () => sql``,
            onSome: (cursor) => sql` AND (organization_id, id) > (${cursor.organizationId}, ${cursor.id})`
          })
        }
            ORDER BY organization_id, id
            LIMIT ${limit}`
      ),
    // The stored JSON must still be the one read: a key set meanwhile (fresh data key) is kept.
    replaceSealed: (current, next) =>
      write(
        sql`UPDATE dw_accounts SET ${sql.update(sealedColumn(next))}
            WHERE organization_id = ${current.organization_id} AND id = ${current.id}
              AND sealed_private_key = ${sealedColumn(current.sealed).sealed_private_key}
            RETURNING id`.pipe(Effect.map((rows) => rows.length > 0), errors.orUnavailable)
      )
  })
})

export const layer = Layer.effect(DwAccountsRepo.DwAccountsRepo, make)
