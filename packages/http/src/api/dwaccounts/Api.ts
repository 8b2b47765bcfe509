/**
 * Warehouse accounts: `PATCH /v2/dw-accounts/{dw_account_id}` (merge patch, optional `If-Match`),
 * `GET /v2/dw-accounts/{dw_account_id}` (extension) and the deprecated
 * `PUT /api/dw-accounts/{dw_account_uuid}/credentials`, whose tenant is the credential's own.
 * No response ever carries key material: only the public key's fingerprint.
 */
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import { DwAccount } from "@costline/core"
import { Schema } from "effect"
import { Access, type AttemptedChange, Requires } from "../Access.js"
import { Declared } from "../Errors.js"
import { IfMatchHeaders } from "../Preconditions.js"
import { Success } from "../Success.js"
import { SuccessorVersion, v1OwnTenant, v2 } from "../Versions.js"

export const DwAccountV2 = Schema.Struct({
  id: DwAccount.DwAccountId,
  name: Schema.String,
  authentication_method: DwAccount.AuthenticationMethod,
  username: Schema.NullOr(Schema.String),
  /** `SHA256:<base64>` of the public key; null until credentials are first set. */
  public_key_fingerprint: Schema.NullOr(Schema.String),
  credentials_update_time: Schema.NullOr(Schema.DateTimeUtc),
  create_time: Schema.DateTimeUtc,
  update_time: Schema.DateTimeUtc,
  etag: Schema.String
}).annotations({ identifier: "DwAccount" })

/** A refused change of credentials is audited as a failed `connections` update of the account. */
const connectionUpdate = (recordIdParam: string): AttemptedChange => ({
  target: { resource: "connections" },
  table_name: "dw_accounts",
  operation: "update",
  recordIdParam
})

// Any text: an id that is not a UUID names no account, a 404 like any unknown id (see ../Ids.ts).
const DwAccountIdParam = HttpApiSchema.param("dw_account_id", Schema.String)
const DwAccountUuidParam = HttpApiSchema.param("dw_account_uuid", Schema.String)

/** How the docs page and the documents name and describe this group (both versions). */
const tag = OpenApi.annotations({
  title: "Warehouse accounts",
  description: "Data-warehouse accounts: their names and the key-pair credentials used to connect to them " +
    "(stored sealed, never returned)."
})

export class DwAccountsApi extends v2(
  HttpApiGroup.make("dwAccounts").annotateContext(tag)
    .add(
      HttpApiEndpoint.get("getDwAccount")`/dw-accounts/${DwAccountIdParam}`
        .annotate(Requires, Access.read("dw_accounts"))
        .addSuccess(DwAccountV2)
    )
    .add(
      HttpApiEndpoint.patch("updateDwAccount")`/dw-accounts/${DwAccountIdParam}`
        .annotate(Requires, Access.write("dw_accounts", connectionUpdate("dw_account_id")))
        .setHeaders(IfMatchHeaders)
        .setPayload(DwAccount.DwAccountPatch)
        .addSuccess(DwAccountV2)
        .addError(Declared.PreconditionFailed)
        .addError(Declared.Conflict)
    )
) {}

export class DwAccountsV1Api extends v1OwnTenant(
  HttpApiGroup.make("dwAccountsV1").annotateContext(tag).add(
    HttpApiEndpoint.put("putCredentials")`/dw-accounts/${DwAccountUuidParam}/credentials`
      .annotate(Requires, Access.write("dw_accounts", connectionUpdate("dw_account_uuid")))
      .setPayload(DwAccount.CredentialsPut)
      .addSuccess(Success)
      .addError(Declared.Conflict)
      .annotate(SuccessorVersion, "/v2/dw-accounts/:dw_account_uuid")
  )
) {}
