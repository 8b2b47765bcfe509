/**
 * Insights through the real server: who may call which route, and view counting by UTC day with
 * the server's clock under TestClock.
 */
import type { Identity } from "@costline/core"
import { layer } from "@effect/vitest"
import { Effect, TestClock } from "effect"
import { expect } from "vitest"
import { type Client, insightsCall, patchInsight, upsertInsight } from "./support/Insights.js"
import { call, makeTestServer, seedTenant } from "./support/TestServer.js"

type Tenant = Effect.Effect.Success<typeof seedTenant>

const session = (role: Identity.Role) => (tenant: Tenant) => Effect.map(tenant.userSession(role), ({ token }) => token)

/** Reads need `insights` read; PATCH needs `insights` write; viewing is a read. */
const ROWS: ReadonlyArray<{
  readonly who: string
  readonly client: (tenant: Tenant) => Effect.Effect<string, unknown>
  readonly reads: boolean
  readonly writes: boolean
}> = [
  { who: "an admin key", client: (tenant) => Effect.succeed(tenant.adminKey), reads: true, writes: true },
  { who: "a read-write key with insights:write", client: (tenant) => tenant.apiKey("read_write", ["insights:write"]), reads: true, writes: true },
  { who: "a read-write key with insights:read", client: (tenant) => tenant.apiKey("read_write", ["insights:read"]), reads: true, writes: false },
  { who: "a read-only key with every scope", client: (tenant) => tenant.apiKey("read_only"), reads: true, writes: false },
  { who: "a key for teams only", client: (tenant) => tenant.apiKey("admin", ["teams:write"]), reads: false, writes: false },
  ...(["admin", "editor"] as const).map((role) => ({ who: `a user with role ${role}`, client: session(role), reads: true, writes: true })),
  ...(["viewer", "monitor_editor", "team_creator"] as const).map((role) => ({
    who: `a user with role ${role}`,
    client: session(role),
    reads: true,
    writes: false
  }))
]

layer(makeTestServer(), { excludeTestServices: true })("insights: permissions", (it) => {
  for (const { client, reads, who, writes } of ROWS) {
    it.effect(`${who}: reads ${reads ? "allowed" : "forbidden"}, updates ${writes ? "allowed" : "forbidden"}`, () =>
      Effect.gen(function*() {
        const tenant = yield* seedTenant
        const insight = yield* upsertInsight(tenant.id, "WH_1")
        const caller: Client = { id: tenant.id, token: yield* client(tenant) }
        const readStatuses = [
          (yield* insightsCall(caller, "GET", "")).status,
          (yield* insightsCall(caller, "GET", `/${insight.id}`)).status,
          (yield* insightsCall(caller, "POST", "/actions/query", { json: { measures: ["count"] } })).status,
          (yield* insightsCall(caller, "POST", `/${insight.id}/actions/viewed`)).status
        ]
        expect(readStatuses).toEqual(reads ? [200, 200, 200, 204] : [403, 403, 403, 403])
        const patched = yield* patchInsight(caller, insight.id, { status: "dismissed" }, insight.etag)
        expect(patched.status).toBe(writes ? 200 : 403)
        const [record] = (yield* call("GET", "/v2/audit-logs?resource__in=insights&sort_order=desc&max_results=1", {
          token: tenant.adminKey,
          tenant: tenant.id
        })).body.items
        expect(record).toMatchObject(
          writes
            ? { operation: "update", status: "success", new_values: { status: "dismissed" } }
            : { operation: "update", status: "failure", record_id: insight.id, new_values: { status: "dismissed" } }
        )
      }))
  }
})

// Under TestClock: the server reads the same stopped clock the test moves. No rate limit, since
// every request then happens in the same instant.
layer(makeTestServer({ rateLimit: false }))("insights: views by UTC day", (it) => {
  it.effect("the count grows again once the clock passes midnight UTC, not before", () =>
    Effect.gen(function*() {
      yield* TestClock.setTime(Date.parse("2024-03-10T23:59:00Z"))
      const tenant = yield* seedTenant
      const insight = yield* upsertInsight(tenant.id, "WH_1")
      const viewer: Client = { id: tenant.id, token: (yield* tenant.userSession("viewer")).token }
      const viewAndRead = Effect.zipRight(
        insightsCall(viewer, "POST", `/${insight.id}/actions/viewed`),
        Effect.map(insightsCall(viewer, "GET", `/${insight.id}`), (reply) => reply.body)
      )
      expect(yield* viewAndRead).toMatchObject({ view_count: 1, last_viewed_at: "2024-03-10T23:59:00.000Z" })
      yield* TestClock.adjust("59 seconds")
      expect(yield* viewAndRead).toMatchObject({ view_count: 1, last_viewed_at: "2024-03-10T23:59:59.000Z" })
      yield* TestClock.adjust("1 second")
      expect(yield* viewAndRead).toMatchObject({
        view_count: 2,
        first_viewed_at: "2024-03-10T23:59:00.000Z",
        last_viewed_at: "2024-03-11T00:00:00.000Z",
        etag: insight.etag
      })
    }))
})
