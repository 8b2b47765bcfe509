/**
 * Failed authentication, limited per client address (GCRA, core's rule): once an address has
 * spent its budget of failures, its requests are answered 429 with `Retry-After` before any
 * credential is looked up, so invalid tokens cannot drive unbounded store lookups. Successful
 * requests cost nothing here. The budgets live in this process's memory (per instance, also over
 * Postgres), swept of whole budgets past 10,000 addresses.
 */
import { HttpServerRequest } from "@effect/platform"
import { Errors, Gcra } from "@costline/core"
import { Context, Effect, type Fiber, Layer, Option } from "effect"
import * as RequestFiber from "../routing/RequestFiber.js"

/** 20 failures in a burst, then one a second. */
export const DEFAULT_AUTH_FAILURE_POLICY: Gcra.RateLimitPolicy = { requestsPerSecond: 1, burst: 20 }

const SWEEP_ABOVE = 10_000

/**
 * The client's address: the socket's peer, or with `trustedProxies` = n > 0 the address the
 * outermost of n trusted proxies saw (the n-th entry from the right of `X-Forwarded-For`).
 */
export const clientAddress = (request: HttpServerRequest.HttpServerRequest, trustedProxies: number): string => {
  const peer = Option.getOrElse(request.remoteAddress, () => "unknown")
  if (trustedProxies <= 0) return peer
  const forwarded = (request.headers["x-forwarded-for"] ?? "").split(",").map((entry) => entry.trim()).filter((entry) => entry !== "")
  return forwarded[forwarded.length - trustedProxies] ?? forwarded[0] ?? peer
}

export class AuthFailureGate extends Context.Tag("@costline/http/AuthFailureGate")<
  AuthFailureGate,
  {
    /** Fails when the request's address has no failure left to spend. */
    readonly check: Effect.Effect<void, Errors.RateLimited, HttpServerRequest.HttpServerRequest>
    /** Whether `check` would pass for the request `fiber` serves, now (no effect to run). */
    readonly admits: (fiber: Fiber.RuntimeFiber<unknown, unknown>) => boolean
    /** Spends one failure of the request's address. */
    readonly record: Effect.Effect<void, never, HttpServerRequest.HttpServerRequest>
  }
>() {}

const make = (policy: Gcra.RateLimitPolicy, trustedProxies: number) => {
  const rule = Gcra.parameters(policy)
  const tats = new Map<string, number>()
  // One step each (`RequestFiber`): `check` runs before every authenticated request.
  const addressOf = (fiber: Fiber.RuntimeFiber<unknown, unknown>) => clientAddress(RequestFiber.requestOf(fiber), trustedProxies)
  const admits = (fiber: Fiber.RuntimeFiber<unknown, unknown>) =>
    Gcra.step(rule, tats.get(addressOf(fiber)), RequestFiber.currentTimeMillis(fiber)).allowed
  return AuthFailureGate.of({
    admits,
    check: Effect.withFiberRuntime<void, Errors.RateLimited, HttpServerRequest.HttpServerRequest>((fiber) => {
      const nowMs = RequestFiber.currentTimeMillis(fiber)
      const outcome = Gcra.step(rule, tats.get(addressOf(fiber)), nowMs)
      if (outcome.allowed) return Effect.void
      const decision = Gcra.decide(rule, outcome, nowMs)
      return Effect.fail(new Errors.RateLimited({ retryAfterSeconds: decision.retryAfterMs / 1000 }))
    }),
    record: Effect.withFiberRuntime<void, never, HttpServerRequest.HttpServerRequest>((fiber) => {
      const key = addressOf(fiber)
      const nowMs = RequestFiber.currentTimeMillis(fiber)
      tats.set(key, Gcra.step(rule, tats.get(key), nowMs).tatMs)
      if (tats.size > SWEEP_ABOVE) for (const [other, tat] of tats) if (tat <= nowMs) tats.delete(other)
      return Effect.void
    })
  })
}

const off = AuthFailureGate.of({ check: Effect.void, admits: () => true, record: Effect.void })

export const layer = (policy: Gcra.RateLimitPolicy | false, trustedProxies: number): Layer.Layer<AuthFailureGate> =>
  Layer.sync(AuthFailureGate, () => policy === false ? off : make(policy, trustedProxies))
