/**
 * Revocation reaches every instance (core `ApiKeys.revoke`: "the next request with it, on any
 * instance, is a 401"): two servers over one store, a key used on the first and revoked through
 * the second. The guard any cache of verified keys must keep (see docs/performance.md).
 */
/** The longest a revocation may take to reach another instance. */
const VERIFIED_KEY_MAX_AGE = Duration.seconds(5)
import { HttpServer } from "@effect/platform"
import { contractSecrets } from "@costline/store-contract"
import { serve } from "@costline/http"
import { PgStore } from "@costline/store-pg"
import { SqliteStore } from "@costline/store-sqlite"
import { expect, it } from "@effect/vitest"
import { Context, Duration, Effect, Layer } from "effect"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { startPostgres } from "./support/EmbeddedPostgres.js"
import { makeTestServer, seedTenant } from "./support/TestServer.js"

const urlOf = (context: Context.Context<HttpServer.HttpServer>) => {
  const { address } = Context.get(context, HttpServer.HttpServer)
  return address._tag === "TcpAddress" ? `http://127.0.0.1:${address.port}` : ""
}

const request = (base: string, method: string, path: string, token: string, tenant: string, json?: unknown) =>
  Effect.promise(async () => {
    const response = await fetch(`${base}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        "x-tenant-id": tenant,
        ...(json === undefined ? {} : { "content-type": "application/json" })
      },
      ...(json === undefined ? {} : { body: JSON.stringify(json) })
    })
    const text = await response.text()
    return { status: response.status, body: text === "" ? undefined : JSON.parse(text) }
  })

/** Asks until `base` refuses the token, for at most `within`; how long that took, in ms. */
const refusedWithin = (base: string, token: string, tenant: string, within: Duration.DurationInput) =>
  Effect.gen(function*() {
    const started = Date.now()
    const deadline = started + Duration.toMillis(within)
    for (;;) {
      const { status } = yield* request(base, "GET", "/v2/insights", token, tenant)
      if (status === 401) return Date.now() - started
      expect(status).toBe(200)
      if (Date.now() > deadline) return Number.POSITIVE_INFINITY
      yield* Effect.sleep("5 millis")
    }
  })

const revocationReachesBoth = (store: () => Layer.Layer<any, unknown>, across: "next request" | "bound") =>
  Effect.gen(function*() {
    const first = yield* Layer.build(makeTestServer({ store: store() }))
    const second = yield* Layer.build(serve({ store: store(), port: 0, accessLog: false, rateLimit: false, authFailureLimit: false, secrets: contractSecrets }))
    const tenant = yield* Effect.provide(seedTenant, first)
    const [one, two] = [urlOf(first), urlOf(second)]
    const mint = (base: string) =>
      Effect.map(
        request(base, "POST", "/v2/api-keys", tenant.adminKey, tenant.id, { name: `k-${Math.random()}`, access: "read_only", scopes: ["*"] }),
        (created) => {
          expect(created.status).toBe(201)
          return created.body as { id: string; token: string }
        }
      )

    // Revoked through the other instance, after the first has verified (and kept) the key.
    const elsewhere = yield* mint(two)
    for (let i = 0; i < 3; i++) expect((yield* request(one, "GET", "/v2/insights", elsewhere.token, tenant.id)).status).toBe(200)
    expect((yield* request(two, "DELETE", `/v2/api-keys/${elsewhere.id}`, tenant.adminKey, tenant.id)).status).toBe(204)
    if (across === "next request") {
      expect((yield* request(one, "GET", "/v2/insights", elsewhere.token, tenant.id)).status).toBe(401)
    } else {
      expect(yield* refusedWithin(one, elsewhere.token, tenant.id, VERIFIED_KEY_MAX_AGE)).toBeLessThan(Duration.toMillis(VERIFIED_KEY_MAX_AGE))
    }
    expect((yield* request(two, "GET", "/v2/insights", elsewhere.token, tenant.id)).status).toBe(401)

    // Revoked through the instance that verified it: refused at its next request.
    const here = yield* mint(one)
    for (let i = 0; i < 3; i++) expect((yield* request(one, "GET", "/v2/insights", here.token, tenant.id)).status).toBe(200)
    expect((yield* request(one, "DELETE", `/v2/api-keys/${here.id}`, tenant.adminKey, tenant.id)).status).toBe(204)
    expect((yield* request(one, "GET", "/v2/insights", here.token, tenant.id)).status).toBe(401)
  })

it.live("SQLite: a key revoked through one instance is refused by another at its next request", () =>
  Effect.gen(function*() {
    const dir = yield* Effect.acquireRelease(
      Effect.sync(() => mkdtempSync(join(tmpdir(), "costline-keys-"))),
      (dir) => Effect.sync(() => rmSync(dir, { recursive: true, force: true }))
    )
    const filename = join(dir, "costline.db")
    yield* revocationReachesBoth(() => SqliteStore.layer({ filename }), "next request")
  }).pipe(Effect.scoped), 60_000)

it.live("Postgres: a key revoked through one instance is refused by another within the bound", () =>
  Effect.gen(function*() {
    const postgres = yield* startPostgres
    yield* revocationReachesBoth(() => PgStore.layer({ url: postgres.url }), "bound")
  }).pipe(Effect.scoped), 120_000)
