/**
 * Over Postgres the budgets live in the database, so every instance enforces the same one: two
 * servers (each with its own connection pool) over one database admit a credential's burst once,
 * also when its requests race through both at the same moment.
 */
import { HttpServer } from "@effect/platform"
import { serve } from "@costline/http"
import { PgStore } from "@costline/store-pg"
import { expect, it } from "@effect/vitest"
import { Context, Effect, Layer } from "effect"
import { startPostgres } from "./support/EmbeddedPostgres.js"
import { makeTestServer, seedTenant } from "./support/TestServer.js"

/** One request earned back every 100 seconds: nothing refills while the test runs. */
const POLICY = { requestsPerSecond: 0.01, burst: 10 }

const urlOf = (context: Context.Context<HttpServer.HttpServer>) => {
  const { address } = Context.get(context, HttpServer.HttpServer)
  return address._tag === "TcpAddress" ? `http://127.0.0.1:${address.port}` : ""
}

it.live("two server instances over one Postgres share each credential's budget", () =>
  Effect.gen(function*() {
    const postgres = yield* startPostgres
    const first = yield* Layer.build(makeTestServer({ store: PgStore.layer({ url: postgres.url }), rateLimit: POLICY }))
    const second = yield* Layer.build(
      serve({ store: PgStore.layer({ url: postgres.url }), rateLimit: POLICY, port: 0, accessLog: false })
    )
    const tenant = yield* Effect.provide(seedTenant, first)
    const get = (base: string) =>
      Effect.promise(() =>
        fetch(`${base}/v2/audit-logs`, { headers: { authorization: `Bearer ${tenant.adminKey}`, "x-tenant-id": tenant.id } })
      ).pipe(Effect.map((response) => response.status))
    const bases = [urlOf(first), urlOf(second)]

    // 14 requests at once, alternating between the instances.
    const statuses = yield* Effect.forEach(Array.from({ length: 14 }, (_, i) => bases[i % 2]!), get, {
      concurrency: "unbounded"
    })
    expect(statuses.filter((status) => status === 200)).toHaveLength(10)
    expect(statuses.filter((status) => status === 429)).toHaveLength(4)
    // Spent on both: neither instance has a budget of its own to fall back on.
    expect(yield* get(bases[0]!)).toBe(429)
    expect(yield* get(bases[1]!)).toBe(429)
  }).pipe(Effect.scoped))
