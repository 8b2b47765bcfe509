/**
 * The generic cell rate algorithm (GCRA): a credential may send `burst` requests at once and
 * `requestsPerSecond` on average. Its whole state is one number per key, the theoretical arrival
 * time (TAT) of its next request, so a store can apply it in one atomic statement. Pure; times
 * are milliseconds since the epoch, as doubles (the SQL twin uses the same arithmetic, in the
 * same order, so both give bit-identical results).
 */
import { Schema } from "effect"

/**
 * @since 0.1.0
 * @category schemas
 */
export const RateLimitPolicy = Schema.Struct({
  requestsPerSecond: Schema.Number.pipe(Schema.finite(), Schema.positive()),
  burst: Schema.Int.pipe(Schema.greaterThanOrEqualTo(1))
}).annotations({ identifier: "RateLimitPolicy" })
/**
 * @since 0.1.0
 * @category models
 */
export type RateLimitPolicy = typeof RateLimitPolicy.Type

/**
 * API-DECISIONS.md: 50 requests per second, bursts of 100.
 * @since 0.1.0
 * @category constants
 */
export const DEFAULT_POLICY: RateLimitPolicy = { requestsPerSecond: 50, burst: 100 }

/**
 * What a store needs to apply the rule: both derived from a policy once.
 * @since 0.1.0
 * @category models
 */
export interface GcraParameters {
  /** Time one request costs: 1000 / rate. */
  readonly intervalMs: number
  /** How far ahead of now the TAT may run: burst × interval. */
  readonly limitMs: number
}

/**
 * @since 0.1.0
 * @category utils
 */
export const parameters = (policy: RateLimitPolicy): GcraParameters => {
  const intervalMs = 1000 / policy.requestsPerSecond
  return { intervalMs, limitMs: policy.burst * intervalMs }
}

/**
 * A key's state after one request: whether it was admitted, and its TAT from now on.
 * @since 0.1.0
 * @category models
 */
export interface Outcome {
  readonly allowed: boolean
  readonly tatMs: number
}

/**
 * One request at `nowMs` for a key whose TAT is `tatMs` (undefined for a key never seen). A
 * denied request costs nothing: the TAT stays where it was.
 * @since 0.1.0
 * @category utils
 */
export const step = (rule: GcraParameters, tatMs: number | undefined, nowMs: number): Outcome => {
  const start = Math.max(tatMs ?? nowMs, nowMs)
  const allowed = start + rule.intervalMs - nowMs <= rule.limitMs
  return { allowed, tatMs: allowed ? start + rule.intervalMs : (tatMs ?? nowMs) }
}

/**
 * What a caller is told about an outcome (the `RateLimit` and `Retry-After` headers).
 * @since 0.1.0
 * @category models
 */
export interface Decision {
  readonly allowed: boolean
  /** Requests that would still be admitted right now. */
  readonly remaining: number
  /** Until the whole burst is available again. */
  readonly resetAfterMs: number
  /** Until a denied request would be admitted; 0 when admitted. */
  readonly retryAfterMs: number
}

/** Absorbs the rounding of `(limit - ahead) / interval` (e.g. 2.9999999996 is 3). */
const EPSILON = 1e-9

/**
 * @since 0.1.0
 * @category utils
 */
export const decide = (rule: GcraParameters, outcome: Outcome, nowMs: number): Decision => {
  const ahead = Math.max(0, outcome.tatMs - nowMs)
  return {
    allowed: outcome.allowed,
    remaining: Math.max(0, Math.floor((rule.limitMs - ahead) / rule.intervalMs + EPSILON)),
    resetAfterMs: ahead,
    retryAfterMs: outcome.allowed ? 0 : Math.max(0, ahead + rule.intervalMs - rule.limitMs)
  }
}
