/**
 * Per-credential rate limiting at the HTTP edge: the tenant middlewares admit each authenticated
 * request through the gate; a refused one fails with RateLimited (429 + `Retry-After`). v2
 * responses describe the budget with the IETF `RateLimit-Policy` / `RateLimit` fields
 * (draft-ietf-httpapi-ratelimit-headers): `"default";q=<burst>;w=<seconds>` and
 * `"default";r=<remaining>;t=<seconds until the burst is whole again>`.
 */
import type { HttpServerRequest } from "@effect/platform"
import { Errors, RateLimiter } from "@costline/core"
import type { Gcra, Identity, RateLimitRepo } from "@costline/core"
import { Context, Effect, Layer, Option } from "effect"
import * as Respond from "../api/Respond.js"
import { V2_PREFIX } from "../api/Versions.js"
import * as RequestFiber from "../routing/RequestFiber.js"
import { pathSegments } from "../routing/RouteTable.js"

export const POLICY_HEADER = "ratelimit-policy"
export const HEADER = "ratelimit"

const POLICY_NAME = "\"default\""

/** The fields describe v2 budgets: v1 kept its historical headers. */
export const appliesTo = (url: string): boolean => `/${pathSegments(url)[0]?.toLowerCase() ?? ""}` === V2_PREFIX

/** The policy as a `RateLimit-Policy` value: the burst, over the time it takes to earn it back. */
export const policyValue = (policy: Gcra.RateLimitPolicy): string =>
  `${POLICY_NAME};q=${policy.burst};w=${Math.max(1, Math.ceil(policy.burst / policy.requestsPerSecond))}`

/** A decision as a `RateLimit` value. */
export const decisionValue = (decision: Gcra.Decision): string =>
  `${POLICY_NAME};r=${decision.remaining};t=${Math.ceil(decision.resetAfterMs / 1000)}`

export class RateLimitGate extends Context.Tag("@costline/http/RateLimitGate")<
  RateLimitGate,
  {
    /** Whether `admit` admits every request without counting it (rate limiting off). */
    readonly admitsAll: boolean
    /** Counts the request against the principal's credential; fails when its budget is spent. */
    readonly admit: (
      principal: Identity.Principal
    ) => Effect.Effect<void, Errors.RateLimited | Errors.StoreUnavailable, HttpServerRequest.HttpServerRequest>
    /**
     * Counts a request that was answered before it reached an operation (`UnroutedRateLimit`);
     * the decision, none when rate limiting is off.
     */
    readonly count: (principal: Identity.Principal) => Effect.Effect<Option.Option<Gcra.Decision>, Errors.StoreUnavailable>
  }
>() {}

const makeGate = Effect.map(RateLimiter.RateLimiter, (limiter) =>
  RateLimitGate.of({
    admitsAll: false,
    count: (principal) => Effect.asSome(limiter.take(RateLimiter.keyOf(principal))),
    admit: (principal) =>
      Effect.flatMap(limiter.take(RateLimiter.keyOf(principal)), (decision) =>
        RequestFiber.withRequest((request, fiber) => {
          // Counted: the pipeline adds nothing more to its answer (`UnroutedRateLimit`).
          RequestFiber.factsOf(fiber).counted = true
          const refusal = decision.allowed
            ? Effect.void
            : Effect.fail(new Errors.RateLimited({ retryAfterSeconds: decision.retryAfterMs / 1000 }))
          // On the answer, whatever it is: a refusal carries it too.
          const adding = appliesTo(request.url) ? Respond.setHeadersOf(fiber, { [HEADER]: decisionValue(decision) }) : undefined
          return adding === undefined ? refusal : Effect.zipRight(adding, refusal)
        }))
  }))

/** Admits everything and touches no store. */
const off = Layer.succeed(RateLimitGate, RateLimitGate.of({ admitsAll: true, admit: () => Effect.void, count: () => Effect.succeedNone }))

/** The gate for a policy, over the store's `RateLimitRepo`; `false` turns rate limiting off. */
export const layer = (policy: Gcra.RateLimitPolicy | false): Layer.Layer<RateLimitGate, never, RateLimitRepo.RateLimitRepo> =>
  policy === false
    ? off
    // The limiter built inside the gate's own layer: a layer of its own and the `provide` between
    // them cost ~500 interpreter steps at every start.
    : Layer.effect(RateLimitGate, Effect.provideServiceEffect(makeGate, RateLimiter.RateLimiter, RateLimiter.make(policy)))
