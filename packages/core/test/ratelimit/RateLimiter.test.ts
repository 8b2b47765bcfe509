import { RateLimiter, RateLimitRepo } from "@costline/core"
import type { Ids } from "@costline/core"
import { describe, expect, it, layer } from "@effect/vitest"
import { Effect, Layer, TestClock } from "effect"

describe("rateLimitKey", () => {
  it("is the credential: an API key, or a user's session", () => {
    const organizationId = "org" as Ids.OrganizationId
    expect(RateLimiter.keyOf({
      _tag: "ApiKey",
      organizationId,
      keyId: "k1" as Ids.ApiKeyId,
      name: "ci",
      access: "admin",
      scopes: ["*"]
    })).toBe("api_key:k1")
    expect(RateLimiter.keyOf({
      _tag: "User",
      organizationId,
      userId: "u1" as Ids.UserId,
      email: "a@example.com",
      sessionId: "s1" as Ids.SessionId,
      roles: []
    })).toBe("session:s1")
  })
})

layer(RateLimiter.layer({ requestsPerSecond: 2, burst: 2 }).pipe(Layer.provide(RateLimitRepo.layerMemory)))(
  "RateLimiter",
  (it) => {
    it.effect("counts requests on the clock it is given", () =>
      Effect.gen(function*() {
        const limiter = yield* RateLimiter.RateLimiter
        expect(limiter.policy).toEqual({ requestsPerSecond: 2, burst: 2 })
        expect(yield* limiter.take("k")).toMatchObject({ allowed: true, remaining: 1 })
        expect(yield* limiter.take("k")).toMatchObject({ allowed: true, remaining: 0 })
        expect(yield* limiter.take("k")).toEqual({ allowed: false, remaining: 0, resetAfterMs: 1000, retryAfterMs: 500 })
        yield* TestClock.adjust("500 millis")
        expect(yield* limiter.take("k")).toMatchObject({ allowed: true, remaining: 0 })
      }))
  }
)

describe("the in-memory repository", () => {
  it.effect("forgets keys whose budget is whole again once it holds many keys, and stays exact", () =>
    Effect.gen(function*() {
      const repo = RateLimitRepo.makeMemory()
      const rule = { intervalMs: 10, limitMs: 10 }
      // One key spent far in the future, then enough idle keys to trigger a sweep.
      yield* repo.take("busy", rule, 1_000_000)
      for (let i = 0; i < 10_000; i++) yield* repo.take(`idle-${i}`, rule, 0)
      // At t = 20 every idle key is whole again; the sweep must not touch the spent one.
      expect((yield* repo.take("busy", rule, 1_000_000)).allowed).toBe(false)
      expect((yield* repo.take("idle-0", rule, 20)).allowed).toBe(true)
    }))
})
