/**
 * Rate limiting per credential (API-DECISIONS.md "Responses and errors"): one GCRA budget per
 * API key or user session, kept by the store so that every instance over one Postgres shares it.
 */
import { Clock, Context, Effect, Layer } from "effect"
import type { Principal } from "../identity/Domain.js"
import type { StoreUnavailable } from "../shared/Errors.js"
import * as Gcra from "./Gcra.js"
import { RateLimitRepo } from "./Repo.js"

/**
 * @since 0.1.0
 * @category tags
 */
export class RateLimiter extends Context.Tag("@costline/core/RateLimiter")<
  RateLimiter,
  {
    readonly policy: Gcra.RateLimitPolicy
    /** Counts one request against `key`'s budget. */
    readonly take: (key: string) => Effect.Effect<Gcra.Decision, StoreUnavailable>
  }
>() {}

/**
 * The budget a principal draws from: its credential, not its user or organization.
 * @since 0.1.0
 * @category utils
 */
export const keyOf = (principal: Principal): string =>
  principal._tag === "ApiKey" ? `api_key:${principal.keyId}` : `session:${principal.sessionId}`

/**
 * @since 0.1.0
 * @category constructors
 */
export const make = (policy: Gcra.RateLimitPolicy) =>
  Effect.map(RateLimitRepo, (repo) => {
    const rule = Gcra.parameters(policy)
    return RateLimiter.of({
      policy,
      take: (key) =>
        Effect.flatMap(Clock.currentTimeMillis, (nowMs) =>
          Effect.map(repo.take(key, rule, nowMs), (outcome) => Gcra.decide(rule, outcome, nowMs)))
    })
  })

/**
 * @since 0.1.0
 * @category layers
 */
export const layer = (policy: Gcra.RateLimitPolicy): Layer.Layer<RateLimiter, never, RateLimitRepo> =>
  Layer.effect(RateLimiter, make(policy))
