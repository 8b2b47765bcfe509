/**
 * Rate limiting through the real server (SQLite: budgets in memory). The policy earns one
 * request back every 100 seconds, so nothing refills while a test runs, however slow the machine.
 */
import { layer } from "@effect/vitest"
import { Effect } from "effect"
import { describe, expect } from "vitest"
import { call, makeTestServer, seedTenant } from "./support/TestServer.js"

const POLICY = { requestsPerSecond: 0.01, burst: 3 }

describe("rate limits", () => {
  layer(makeTestServer({ rateLimit: POLICY }), { excludeTestServices: true })("on", (it) => {
    it.effect("a credential gets its burst, then 429 rate_limited with Retry-After", () =>
      Effect.gen(function*() {
        const tenant = yield* seedTenant
        const get = call("GET", "/v2/audit-logs", { token: tenant.adminKey, tenant: tenant.id })
        const replies = [yield* get, yield* get, yield* get, yield* get]
        expect(replies.map((reply) => reply.status)).toEqual([200, 200, 200, 429])
        const refused = replies[3]!
        expect(refused.headers.get("content-type")).toBe("application/problem+json")
        expect(refused.body).toMatchObject({ code: "rate_limited", status: 429 })
        const retryAfter = Number(refused.headers.get("retry-after"))
        expect(retryAfter).toBeGreaterThan(90)
        expect(retryAfter).toBeLessThanOrEqual(100)
      }))

    it.effect("every v2 response describes the policy and what is left of the budget", () =>
      Effect.gen(function*() {
        const tenant = yield* seedTenant
        const get = call("GET", "/v2/audit-logs", { token: tenant.adminKey, tenant: tenant.id })
        const replies = [yield* get, yield* get, yield* get, yield* get]
        for (const reply of replies) expect(reply.headers.get("ratelimit-policy")).toBe("\"default\";q=3;w=300")
        expect(replies.map((reply) => reply.headers.get("ratelimit")?.split(";t=")[0])).toEqual([
          "\"default\";r=2",
          "\"default\";r=1",
          "\"default\";r=0",
          "\"default\";r=0"
        ])
        // Seconds until the burst is whole again: one interval per request spent.
        expect(Number(replies[0]!.headers.get("ratelimit")!.split(";t=")[1])).toBeLessThanOrEqual(100)
        expect(Number(replies[2]!.headers.get("ratelimit")!.split(";t=")[1])).toBeGreaterThan(200)
      }))

    it.effect("each credential has a budget of its own; the tenant's other keys are not affected", () =>
      Effect.gen(function*() {
        const tenant = yield* seedTenant
        const other = yield* tenant.apiKey("admin")
        const get = (token: string) => call("GET", "/v2/audit-logs", { token, tenant: tenant.id })
        for (let i = 0; i < 3; i++) yield* get(tenant.adminKey)
        expect((yield* get(tenant.adminKey)).status).toBe(429)
        expect((yield* get(other)).status).toBe(200)
      }))

    it.effect("v1 is limited by the same budget, answered FastAPI style without the v2 fields", () =>
      Effect.gen(function*() {
        const tenant = yield* seedTenant
        for (let i = 0; i < 3; i++) yield* call("GET", "/v2/audit-logs", { token: tenant.adminKey, tenant: tenant.id })
        const v1 = yield* call("POST", `/api/${tenant.id}/teams`, { token: tenant.adminKey, json: { name: "Late" } })
        expect(v1.status).toBe(429)
        expect(v1.body).toEqual({ detail: "rate limit exceeded" })
        expect(v1.headers.get("retry-after")).not.toBeNull()
        expect(v1.headers.get("ratelimit")).toBeNull()
        expect(v1.headers.get("ratelimit-policy")).toBeNull()
      }))

    it.effect("a request without valid credentials spends nothing and shows only the policy", () =>
      Effect.gen(function*() {
        const tenant = yield* seedTenant
        for (let i = 0; i < 5; i++) {
          const anonymous = yield* call("GET", "/v2/audit-logs", { tenant: tenant.id })
          expect(anonymous.status).toBe(401)
          expect(anonymous.headers.get("ratelimit-policy")).toBe("\"default\";q=3;w=300")
          expect(anonymous.headers.get("ratelimit")).toBeNull()
        }
        expect((yield* call("GET", "/v2/audit-logs", { token: tenant.adminKey, tenant: tenant.id })).status).toBe(200)
      }))
  })

  layer(makeTestServer({ rateLimit: false }), { excludeTestServices: true })("off", (it) => {
    it.effect("admits everything and sends no rate-limit fields", () =>
      Effect.gen(function*() {
        const tenant = yield* seedTenant
        for (let i = 0; i < 120; i++) {
          const reply = yield* call("GET", "/v2/audit-logs", { token: tenant.adminKey, tenant: tenant.id })
          expect(reply.status).toBe(200)
          expect(reply.headers.get("ratelimit")).toBeNull()
          expect(reply.headers.get("ratelimit-policy")).toBeNull()
        }
      }))
  })
})
