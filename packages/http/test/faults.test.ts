/**
 * The store going away under a running server: every request is answered at once with 503
 * `unavailable` and Retry-After (never a hang, never a 500, nothing about the store in the
 * body), nothing is half-written, and the same server serves again when the store is back.
 */
import { PgStore } from "@costline/store-pg"
import { SqlClient } from "@effect/sql/SqlClient"
import { expect, it } from "@effect/vitest"
import { Context, Duration, Effect, Layer } from "effect"
import { startPostgres } from "./support/EmbeddedPostgres.js"
import { call, makeTestServer, seedTenant } from "./support/TestServer.js"

it.live("a Postgres stopped and started again under a running server: 503 meanwhile, served again after", () =>
  Effect.gen(function*() {
    const postgres = yield* startPostgres
    const server = yield* Layer.build(makeTestServer({ store: PgStore.layer({ url: postgres.url, connectTimeout: "2 seconds" }) }))
    const tenant = yield* Effect.provide(seedTenant, server)
    const auth = { token: tenant.adminKey, tenant: tenant.id }
    const exportLog = call("GET", "/v2/audit-logs?max_results=500", auth).pipe(Effect.provide(server))
    const before = yield* exportLog
    expect(before.status).toBe(200)

    yield* postgres.stop
    for (const reply of [
      yield* exportLog,
      yield* call("POST", "/v2/teams", { ...auth, json: { name: "During the outage" } }).pipe(Effect.provide(server)),
      yield* call("POST", `/api/${tenant.id}/teams`, { token: tenant.adminKey, json: { name: "v1 too" } }).pipe(
        Effect.provide(server)
      )
    ]) {
      expect(reply.status).toBe(503)
      expect(reply.headers.get("retry-after")).toBe("1")
      expect(reply.text).not.toMatch(/postgres|ECONN|127\.0\.0\.1|SELECT|INSERT/i)
    }
    const unavailable = yield* exportLog
    expect(unavailable.body).toMatchObject({ code: "unavailable", status: 503 })
    expect((yield* call("GET", "/readyz").pipe(Effect.provide(server))).status).toBe(503)
    expect((yield* call("GET", "/healthz").pipe(Effect.provide(server))).status).toBe(200)

    yield* postgres.start
    const after = yield* exportLog
    expect(after.status).toBe(200)
    // The refused writes left nothing behind: the log is what it was.
    expect(after.body.items).toEqual(before.body.items)
    expect((yield* call("GET", "/readyz").pipe(Effect.provide(server))).status).toBe(200)
    const created = yield* call("POST", "/v2/teams", { ...auth, json: { name: "After the outage" } }).pipe(Effect.provide(server))
    expect(created.status).toBe(201)
  }).pipe(Effect.scoped))

it.live("a statement held up past the statement timeout is cancelled: 503 at once, not a hang", () =>
  Effect.gen(function*() {
    const postgres = yield* startPostgres
    const store = PgStore.layer({ url: postgres.url, statementTimeout: "500 millis" })
    const server = yield* Layer.build(makeTestServer({ store }))
    const tenant = yield* Effect.provide(seedTenant, server)
    const sql = Context.get(yield* Layer.build(PgStore.layer({ url: postgres.url })), SqlClient)
    // Another session locks the credentials table: the API's lookup of the key cannot finish.
    const [elapsed, reply] = yield* sql.withTransaction(
      sql`LOCK TABLE api_keys IN ACCESS EXCLUSIVE MODE`.pipe(
        Effect.zipRight(call("GET", "/v2/audit-logs", { token: tenant.adminKey, tenant: tenant.id }).pipe(Effect.provide(server))),
        Effect.timed
      )
    )
    expect(reply.status).toBe(503)
    // The configured 500 ms cut it, not the 30-second default: a margin no slow machine closes.
    expect(Duration.toMillis(elapsed)).toBeLessThan(25_000)
    expect(reply.body).toMatchObject({ code: "unavailable" })
    expect(reply.headers.get("retry-after")).toBe("1")
  }).pipe(Effect.scoped))

it.live("a database that refuses connections (ALLOW_CONNECTIONS false, SQLSTATE 55000): 503 with Retry-After, served again after", () =>
  Effect.gen(function*() {
    const postgres = yield* startPostgres
    const admin = Context.get(yield* Layer.build(PgStore.layer({ url: postgres.url, migrate: false, maxConnections: 1 })), SqlClient)
    yield* admin`CREATE DATABASE costline_refusing`
    const url = new URL(postgres.url)
    url.pathname = "/costline_refusing"
    const server = yield* Layer.build(makeTestServer({ store: PgStore.layer({ url: url.toString() }) }))
    const tenant = yield* Effect.provide(seedTenant, server)
    const auth = { token: tenant.adminKey, tenant: tenant.id }
    const exportLog = call("GET", "/v2/audit-logs", auth).pipe(Effect.provide(server))
    expect((yield* exportLog).status).toBe(200)

    yield* admin`ALTER DATABASE costline_refusing ALLOW_CONNECTIONS false`
    // The pool's open connections go too: every request must connect anew, and is refused.
    yield* admin`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = 'costline_refusing'`
    yield* admin<{ readonly n: number }>`SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = 'costline_refusing'`.pipe(
      Effect.repeat({ until: ([row]) => row!.n === 0 }),
      Effect.timeout("30 seconds")
    )
    for (let n = 0; n < 5; n++) {
      const reply = yield* exportLog
      expect(reply.status).toBe(503)
      expect(reply.body).toMatchObject({ code: "unavailable", status: 503 })
      expect(reply.headers.get("retry-after")).toBe("1")
    }

    yield* admin`ALTER DATABASE costline_refusing ALLOW_CONNECTIONS true`
    expect((yield* exportLog).status).toBe(200)
  }).pipe(Effect.scoped))
