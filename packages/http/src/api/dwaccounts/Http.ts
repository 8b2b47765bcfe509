/**
 * Handlers of warehouse accounts: call core's `DwAccounts` and set the `ETag` header. Access
 * (`dw_accounts` read or write, a refusal audited as a failed `connections` update whose key
 * members the audit log redacts) is declared on the endpoints and enforced before decoding.
 */
import { DwAccount, DwAccounts } from "@costline/core"
import { Effect } from "effect"
import { CostlineApi } from "../Api.js"
import { Caller } from "../Caller.js"
import { parseId } from "../Ids.js"
import * as Preconditions from "../Preconditions.js"
import * as Respond from "../Respond.js"
import { success } from "../Success.js"
import type { DwAccountV2 } from "./Api.js"
import * as Group from "../Group.js"

const toDwAccountV2 = (account: DwAccount.DwAccount): typeof DwAccountV2.Type => ({
  id: account.id,
  name: account.name,
  authentication_method: account.authentication_method,
  username: account.username,
  public_key_fingerprint: account.public_key_fingerprint,
  credentials_update_time: account.credentials_updated_at,
  create_time: account.created_at,
  update_time: account.updated_at,
  etag: account.etag
})

const accountId = parseId(DwAccount.DwAccountId, "dw account")

const withEtag = (account: DwAccount.DwAccount) => Effect.as(Respond.setHeaders({ etag: account.etag }), toDwAccountV2(account))

export const DwAccountsHttpLive = Group.group(CostlineApi, "dwAccounts", (handlers) =>
  Effect.gen(function*() {
    const accounts = yield* DwAccounts.DwAccounts
    return handlers
      .handle("getDwAccount", ({ path }) =>
        Effect.gen(function*() {
          const caller = yield* Caller
          return yield* withEtag(yield* accounts.get(caller.organizationId, yield* accountId(path.dw_account_id)))
        }))
      .handle("updateDwAccount", ({ headers, path, payload }) =>
        Effect.gen(function*() {
          const caller = yield* Caller
          const id = yield* accountId(path.dw_account_id)
          const precondition = yield* Preconditions.optional(headers)
          const updated = yield* accounts.update(caller.actor, caller.organizationId, id, payload, precondition)
          return yield* withEtag(updated)
        }))
  }))

export const DwAccountsV1HttpLive = Group.group(CostlineApi, "dwAccountsV1", (handlers) =>
  Effect.gen(function*() {
    const accounts = yield* DwAccounts.DwAccounts
    return handlers.handle("putCredentials", ({ path, payload }) =>
      Effect.gen(function*() {
        const caller = yield* Caller
        yield* accounts.replaceCredentials(caller.actor, caller.organizationId, yield* accountId(path.dw_account_uuid), payload)
        return success
      }))
  }))
