/** Handlers of `/v2/api-keys`: core's ApiKeys, with the caller as the grantor that bounds a new key. */
import { ApiKeys, Ids } from "@costline/core"
import type { Identity } from "@costline/core"
import { Effect } from "effect"
import { CostlineApi } from "../Api.js"
import { Caller } from "../Caller.js"
import { parseId } from "../Ids.js"
import { onePage } from "../Pages.js"
import * as Respond from "../Respond.js"
import { V2_PREFIX } from "../Versions.js"
import * as Group from "../Group.js"

const keyId = parseId(Ids.ApiKeyId, "api_key")

const toApiKeyV2 = ({ organization_id: _tenant, ...key }: Identity.ApiKey) => key

export const ApiKeysHttpLive = Group.group(CostlineApi, "apiKeys", (handlers) =>
  Effect.map(ApiKeys.ApiKeys, (keys) =>
    handlers
      .handle("listApiKeys", () =>
        Effect.gen(function*() {
          const caller = yield* Caller
          const items = (yield* keys.list(caller.organizationId)).map(toApiKeyV2)
          return onePage(items)
        }))
      .handle("createApiKey", ({ payload }) =>
        Effect.gen(function*() {
          const caller = yield* Caller
          const { key, token } = yield* keys.create(caller.actor, caller.organizationId, {
            name: payload.name,
            access: payload.access,
            scopes: payload.scopes,
            expiresAt: payload.expires_at ?? undefined
          }, { grantor: caller.principal, requestId: caller.requestId })
          yield* Respond.setHeaders({ location: `${V2_PREFIX}/api-keys/${key.id}` })
          return { ...toApiKeyV2(key), token }
        }))
      .handle("revokeApiKey", ({ path }) =>
        Effect.gen(function*() {
          const caller = yield* Caller
          yield* keys.revoke(caller.actor, caller.organizationId, yield* keyId(path.api_key_id))
        }))))
