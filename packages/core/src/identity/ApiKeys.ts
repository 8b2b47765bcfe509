/**
 * API keys: created by operators (CLI) and organization admins (`/v2/api-keys`), shown once,
 * stored as a hash. A key created on behalf of a principal carries no more than that principal
 * holds (ApiKeyBounds); a refused creation is audited as a failure.
 */
import { Context, DateTime, Effect, Layer, Option, Schema } from "effect"
import { AuditLog } from "../audit/AuditLog.js"
import type { AuditEntry } from "../audit/Domain.js"
import { Actor } from "../shared/Actor.js"
import { Forbidden, NotFound, type StoreUnavailable, ValidationFailed } from "../shared/Errors.js"
import { type ApiKeyId, newId, type OrganizationId } from "../shared/Ids.js"
import { Transactor } from "../shared/Transactor.js"
import * as ApiKeyBounds from "./internal/ApiKeyBounds.js"
import * as ApiToken from "./ApiToken.js"
import { type Access, ApiKey, ApiKeyAudit, ApiKeyScope, type Principal } from "./Domain.js"
import { Organizations } from "./Organizations.js"
import { changedBy } from "./Permissions.js"
import { ApiKeysRepo } from "./Repo.js"

const decodeScope = Schema.decodeUnknownEither(ApiKeyScope)

/**
 * @since 0.1.0
 * @category models
 */
export interface CreateApiKey {
  readonly name: string
  readonly access: Access
  readonly scopes: ReadonlyArray<string>
  readonly expiresAt?: DateTime.Utc | undefined
}

/**
 * Who asks for a key: an operator (no bound), or a principal whose own rights bound the key.
 * @since 0.1.0
 * @category models
 */
export interface OnBehalfOf {
  readonly grantor?: Principal | undefined
  readonly requestId?: string | null | undefined
}

/**
 * @since 0.1.0
 * @category tags
 */
export class ApiKeys extends Context.Tag("@costline/core/ApiKeys")<
  ApiKeys,
  {
    /** Returns the key and its token; the token is never retrievable again. */
    readonly create: (
      actor: Actor,
      organizationId: OrganizationId,
      input: CreateApiKey,
      onBehalfOf?: OnBehalfOf
    ) => Effect.Effect<{ key: ApiKey; token: string }, ValidationFailed | NotFound | Forbidden | StoreUnavailable>
    /** Every key of the organization (revoked and expired included), oldest first; never a token. */
    readonly list: (organizationId: OrganizationId) => Effect.Effect<ReadonlyArray<ApiKey>, NotFound | StoreUnavailable>
    /** Ends a key's life as a credential; the next request with it, on any instance, is a 401. */
    readonly revoke: (
      actor: Actor,
      organizationId: OrganizationId,
      id: ApiKeyId
    ) => Effect.Effect<void, NotFound | StoreUnavailable>
    /** Revokes the one live key with this name; ambiguous names must be revoked by id. */
    readonly revokeByName: (
      actor: Actor,
      organizationId: OrganizationId,
      name: string
    ) => Effect.Effect<ApiKey, NotFound | ValidationFailed | StoreUnavailable>
  }
>() {}

/**
 * @since 0.1.0
 * @category constructors
 */
export const make = Effect.gen(function*() {
  const repo = yield* ApiKeysRepo
  const organizations = yield* Organizations
  const audit = yield* AuditLog
  const tx = yield* Transactor

  const validScopes = (raw: ReadonlyArray<string>) =>
    Effect.gen(function*() {
      const scopes: Array<ApiKeyScope> = []
      for (const [index, scope] of raw.entries()) {
        const decoded = decodeScope(scope)
        if (decoded._tag === "Left") {
          return yield* ValidationFailed.single(`scopes[${index}]`, "invalid", `unknown scope '${scope}'`)
        }
        // A key is stored, listed and read per request with its scopes: a list of 60,000 copies of
        // one scope (1 MiB) was accepted and made every key listing megabytes long.
        if (scopes.includes(decoded.right)) {
          return yield* ValidationFailed.single(`scopes[${index}]`, "duplicate", `scope '${scope}' is listed twice`)
        }
        scopes.push(decoded.right)
      }
      if (scopes.length === 0) return yield* ValidationFailed.single("scopes", "empty", "at least one scope")
      return scopes
    })

  const refuse = (grantor: Principal, requestId: string | null, organizationId: OrganizationId, entry: AuditEntry, why: string) =>
    audit.record(new Actor({ ...changedBy(grantor), requestId }), organizationId, { ...entry, status: "failure" }).pipe(
      Effect.zipRight(new Forbidden({ message: why }))
    )

  const revoke = (actor: Actor, organizationId: OrganizationId, id: ApiKeyId) =>
    tx.withTransaction(Effect.gen(function*() {
      const now = yield* DateTime.now
      const key = yield* repo.findById(organizationId, id)
      if (Option.isNone(key) || !(yield* repo.revoke(organizationId, id, DateTime.toDateUtc(now)))) {
        return yield* new NotFound({ resource: "api_key", id })
      }
      // Revocation ends the key's life as a credential: audited as its deletion.
      yield* audit.record(actor, organizationId, ApiKeyAudit.deleted(key.value))
    }))

  return ApiKeys.of({
    create: (actor, organizationId, input, onBehalfOf) =>
      Effect.gen(function*() {
        const name = input.name.trim()
        if (name.length === 0 || name.length > 200) {
          return yield* ValidationFailed.single("name", "invalid", "name must be 1-200 characters")
        }
        const scopes = yield* validScopes(input.scopes)
        const now = yield* DateTime.now
        const grantor = onBehalfOf?.grantor
        // A principal asking for a key that is dead on arrival made a mistake; an operator or a
        // host may mint one on purpose (to test that expired keys are refused).
        if (grantor !== undefined && input.expiresAt !== undefined && !DateTime.lessThan(now, input.expiresAt)) {
          return yield* ValidationFailed.single("expires_at", "invalid", "expiry must be in the future")
        }
        if (grantor !== undefined) {
          const why = ApiKeyBounds.excess(grantor, { access: input.access, scopes })
          if (why !== undefined) {
            return yield* refuse(
              grantor,
              onBehalfOf?.requestId ?? null,
              organizationId,
              ApiKeyAudit.refused("create", null, { name, access: input.access, scopes }),
              why
            )
          }
        }
        // The refusal above is recorded on its own; the key and its record commit together.
        return yield* tx.withTransaction(Effect.gen(function*() {
          yield* organizations.get(organizationId)
          const token = ApiToken.generate("api_key")
          const key = new ApiKey({
            id: yield* newId<"ApiKeyId">(),
            organization_id: organizationId,
            name,
            access: input.access,
            scopes,
            prefix: ApiToken.displayPrefix(token),
            created_at: now,
            expires_at: input.expiresAt ?? null,
            revoked_at: null,
            last_used_at: null
          })
          yield* repo.insert(key, ApiToken.hash(token))
          yield* audit.record(actor, organizationId, ApiKeyAudit.created(key))
          return { key, token }
        }))
      }),
    list: (organizationId) => Effect.zipRight(organizations.get(organizationId), repo.list(organizationId)),
    revoke,
    revokeByName: (actor, organizationId, name) =>
      Effect.gen(function*() {
        const now = yield* DateTime.now
        const live = (yield* repo.list(organizationId)).filter((key) =>
          key.name === name && key.revoked_at === null && (key.expires_at === null || DateTime.lessThan(now, key.expires_at))
        )
        if (live.length === 0) return yield* new NotFound({ resource: "api_key", id: name })
        if (live.length > 1) {
          return yield* ValidationFailed.single(
            "name",
            "ambiguous",
            `${live.length} live keys are named '${name}': revoke one by id (${live.map((key) => key.id).join(", ")})`
          )
        }
        yield* revoke(actor, organizationId, live[0]!.id)
        return live[0]!
      })
  })
})

/**
 * @since 0.1.0
 * @category layers
 */
export const layer = Layer.effect(ApiKeys, make)
