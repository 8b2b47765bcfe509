/** API keys: created by operators (dashboard, CLI), shown once, stored as a hash. */
import { Context, DateTime, Effect, Layer, Schema } from "effect"
import { AuditLog } from "../audit/AuditLog.js"
import type { Actor } from "../shared/Actor.js"
import { NotFound, type StoreUnavailable, ValidationFailed } from "../shared/Errors.js"
import { type ApiKeyId, newId, type OrganizationId } from "../shared/Ids.js"
import { Transactor } from "../shared/Transactor.js"
import * as ApiToken from "./ApiToken.js"
import { type Access, ApiKey, ApiKeyScope } from "./Domain.js"
import { Organizations } from "./Organizations.js"
import { ApiKeysRepo } from "./Repo.js"

const decodeScope = Schema.decodeUnknownEither(ApiKeyScope)

export interface CreateApiKey {
  readonly name: string
  readonly access: Access
  readonly scopes: ReadonlyArray<string>
  readonly expiresAt?: DateTime.Utc | undefined
}

export class ApiKeys extends Context.Tag("@costline/core/ApiKeys")<
  ApiKeys,
  {
    /** Returns the key and its token; the token is never retrievable again. */
    readonly create: (
      actor: Actor,
      organizationId: OrganizationId,
      input: CreateApiKey
    ) => Effect.Effect<{ key: ApiKey; token: string }, ValidationFailed | NotFound | StoreUnavailable>
    readonly revoke: (
      actor: Actor,
      organizationId: OrganizationId,
      id: ApiKeyId
    ) => Effect.Effect<void, NotFound | StoreUnavailable>
  }
>() {}

export const make = Effect.gen(function*() {
  const repo = yield* ApiKeysRepo
  const organizations = yield* Organizations
  const audit = yield* AuditLog
  const tx = yield* Transactor

  return ApiKeys.of({
    create: (actor, organizationId, input) =>
      tx.withTransaction(Effect.gen(function*() {
        const name = input.name.trim()
        if (name.length === 0 || name.length > 200) {
          return yield* ValidationFailed.single("name", "invalid", "name must be 1-200 characters")
        }
        const scopes: Array<ApiKeyScope> = []
        for (const [index, scope] of input.scopes.entries()) {
          const decoded = decodeScope(scope)
          if (decoded._tag === "Left") {
            return yield* ValidationFailed.single(`scopes[${index}]`, "invalid", `unknown scope '${scope}'`)
          }
          scopes.push(decoded.right)
        }
        if (scopes.length === 0) return yield* ValidationFailed.single("scopes", "empty", "at least one scope")
        yield* organizations.get(organizationId)
        const token = ApiToken.generate("api_key")
        const key = new ApiKey({
          id: yield* newId<"ApiKeyId">(),
          organization_id: organizationId,
          name,
          access: input.access,
          scopes,
          prefix: ApiToken.displayPrefix(token),
          created_at: yield* DateTime.now,
          expires_at: input.expiresAt ?? null,
          revoked_at: null
        })
        yield* repo.insert(key, ApiToken.hash(token))
        yield* audit.record(actor, organizationId, {
          target: { resource: "api_keys" },
          table_name: "api_keys",
          record_id: key.id,
          operation: "create",
          new_values: { name: key.name, access: key.access, scopes: key.scopes, prefix: key.prefix }
        })
        return { key, token }
      })),
    revoke: (actor, organizationId, id) =>
      tx.withTransaction(Effect.gen(function*() {
        const now = yield* DateTime.now
        const revoked = yield* repo.revoke(organizationId, id, DateTime.toDateUtc(now))
        if (!revoked) return yield* new NotFound({ resource: "api_key", id })
        // Revocation ends the key's life as a credential: audited as its deletion.
        yield* audit.record(actor, organizationId, {
          target: { resource: "api_keys" },
          table_name: "api_keys",
          record_id: id,
          operation: "delete",
          old_values: { revoked_at: null },
          new_values: { revoked_at: DateTime.formatIso(now) }
        })
      }))
  })
})

export const layer = Layer.effect(ApiKeys, make)
