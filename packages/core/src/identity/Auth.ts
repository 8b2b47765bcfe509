/**
 * Bearer token → principal, and the tenant check. Every way a credential can be wrong (missing,
 * malformed, unknown, expired, revoked) yields the same Unauthorized, so callers learn nothing.
 */
import { Context, DateTime, Duration, Effect, Layer, Option } from "effect"
import { Forbidden, type StoreUnavailable, Unauthorized } from "../shared/Errors.js"
import * as ApiToken from "./ApiToken.js"
import { CredentialChanges } from "./CredentialChanges.js"
import type { ApiKey, Principal } from "./Domain.js"
import { organizationWide } from "./EffectiveRoles.js"
import { ApiKeysRepo, SessionsRepo, UsersRepo } from "./Repo.js"
import { makeEffectiveRolesReader } from "./RoleSources.js"
import * as VerifiedKeys from "./internal/VerifiedKeys.js"

/**
 * @since 0.1.0
 * @category tags
 */
export class Auth extends Context.Tag("@costline/core/Auth")<
  Auth,
  {
    /** `authorization` is the raw header value (`Bearer <token>`), if any. */
    readonly authenticate: (authorization: string | undefined) => Effect.Effect<Principal, Unauthorized | StoreUnavailable>
    /**
     * What `authenticate` would answer at `nowMs`, when it can be answered now without the store:
     * an API key verified under the store's current credential stamp, live, whose `last_used_at`
     * needs no write. `undefined` for everything else — no credential, a session, a key not
     * verified lately, an expired or revoked one, a due bookkeeping write — which `authenticate`
     * answers. Reads the credential stamp, as `authenticate` does; writes nothing.
     */
    readonly authenticateCached: (authorization: string | undefined, nowMs: number) => Principal | undefined
    /** The principal must belong to the organization the request names. */
    readonly requireTenant: (principal: Principal, organizationId: string) => Effect.Effect<void, Forbidden>
  }
>() {}

const unauthorized = new Unauthorized({ message: "missing or invalid credentials" })

const BEARER = /^Bearer[ ]+(\S+)\s*$/i

/**
 * How fresh a key's `last_used_at` is kept: one write per key per interval, not per request.
 * @since 0.1.0
 * @category constants
 */
export const LAST_USED_RESOLUTION = Duration.minutes(1)

/**
 * @since 0.1.0
 * @category constructors
 */
export const make = Effect.gen(function*() {
  const apiKeys = yield* ApiKeysRepo
  const sessions = yield* SessionsRepo
  const users = yield* UsersRepo
  const effectiveRoles = yield* makeEffectiveRolesReader
  // Without the store's credential stamp nothing is cached: every request reads its key.
  const verifiedKeys = VerifiedKeys.make(Option.getOrUndefined(yield* Effect.serviceOption(CredentialChanges)))
  const lastUsedResolutionMs = Duration.toMillis(LAST_USED_RESOLUTION)

  const live = (now: DateTime.Utc, expires: DateTime.Utc | null, revoked: DateTime.Utc | null) =>
    revoked === null && (expires === null || DateTime.lessThan(now, expires))

  /** The bearer token of an `Authorization` value, if it holds one. */
  const bearerToken = (authorization: string | undefined) =>
    authorization === undefined ? undefined : BEARER.exec(authorization)?.[1]

  const apiKeyPrincipal = (key: ApiKey): Principal => ({
    _tag: "ApiKey",
    organizationId: key.organization_id,
    keyId: key.id,
    name: key.name,
    access: key.access,
    scopes: key.scopes
  })

  /** Whether the verified key may be used at `nowMs`: not revoked, not expired (checked on every request, cached or not). */
  const keyLiveAt = ({ key }: VerifiedKeys.Verified, nowMs: number) =>
    key.revoked_at === null && (key.expires_at === null || nowMs < key.expires_at.epochMillis)

  /** Whether the key's `last_used_at` is due a write: one per key per LAST_USED_RESOLUTION. */
  const touchDue = (verified: VerifiedKeys.Verified, nowMs: number) =>
    verified.lastUsedAtMs === null || verified.lastUsedAtMs < nowMs - lastUsedResolutionMs

  const authenticateCached = (authorization: string | undefined, nowMs: number): Principal | undefined => {
    const token = bearerToken(authorization)
    if (token === undefined || ApiToken.parse(token) !== "api_key") return undefined
    const verified = verifiedKeys.lookup(ApiToken.hash(token), nowMs).verified
    return verified === undefined || !keyLiveAt(verified, nowMs) || touchDue(verified, nowMs) ? undefined : apiKeyPrincipal(verified.key)
  }

  const authenticate = (authorization: string | undefined) =>
    Effect.gen(function*() {
      const token = bearerToken(authorization)
      if (token === undefined) return yield* unauthorized
      const kind = ApiToken.parse(token)
      // An invitation token is accepted once, at its own route; it is never a bearer credential.
      if (kind === undefined || kind === "invitation") return yield* unauthorized
      const now = yield* DateTime.now
      const hash = ApiToken.hash(token)
      if (kind === "api_key") {
        const nowMs = DateTime.toEpochMillis(now)
        const cached = verifiedKeys.lookup(hash, nowMs)
        let verified = cached.verified
        if (verified === undefined) {
          const found = yield* apiKeys.findByHash(hash).pipe(Effect.map(Option.getOrUndefined))
          if (found === undefined) return yield* unauthorized
          verified = verifiedKeys.remember(hash, found, cached.stamp, nowMs)
        }
        const key = verified.key
        if (!keyLiveAt(verified, nowMs)) return yield* unauthorized
        if (touchDue(verified, nowMs)) {
          const recorded = verified
          // Bookkeeping: a store too busy to record it must not refuse the request (the next one tries again).
          yield* apiKeys.touch(key.id, DateTime.toDateUtc(now), new Date(nowMs - lastUsedResolutionMs)).pipe(
            Effect.tap(() => {
              recorded.lastUsedAtMs = nowMs
            }),
            Effect.ignore
          )
        }
        return apiKeyPrincipal(key)
      }
      const session = yield* sessions.findByHash(hash).pipe(Effect.map(Option.getOrUndefined))
      if (session === undefined || !live(now, session.expires_at, session.revoked_at)) return yield* unauthorized
      const user = yield* users.findById(session.organization_id, session.user_id).pipe(
        Effect.map(Option.getOrUndefined)
      )
      if (user === undefined) return yield* unauthorized
      return {
        _tag: "User",
        organizationId: session.organization_id,
        userId: user.id,
        email: user.email,
        sessionId: session.id,
        // Direct, default and team-inherited roles, as far as they reach the whole organization.
        roles: organizationWide(yield* effectiveRoles(session.organization_id, user.id))
      } satisfies Principal
    })

  return Auth.of({
    authenticate,
    authenticateCached,
    requireTenant: (principal, organizationId) =>
      principal.organizationId === organizationId
        ? Effect.void
        : Effect.fail(new Forbidden({ message: "the credential does not belong to this organization" }))
  })
})

/**
 * @since 0.1.0
 * @category layers
 */
export const layer = Layer.effect(Auth, make)
