/**
 * Revocation reaches every instance (core `ApiKeys.revoke`: "the next request with it, on any
 * instance, is a 401"): two servers over one store, a key used on the first and revoked through
 * the second. The guard any cache of verified keys must keep (see docs/performance.md): the first
 * instance is shown to cache (its key lookups are counted), and to refuse the key at its first
 * request after its store's credential stamp moved (SQLite: at the commit; Postgres: when the
 * NOTIFY sent at commit arrives, within VERIFIED_KEY_MAX_AGE).
 */
/** The longest a revocation may take to reach another instance. */
const VERIFIED_KEY_MAX_AGE = Duration.seconds(5)
import { HttpServer } from "@effect/platform"
import { contractSecrets, countKeyReads, credentialStamp } from "@costline/store-contract"
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

/** Polls `condition` until it holds, for at most `within` (real time); how long that took, in ms. */
const heldWithin = (condition: () => boolean, within: Duration.DurationInput) =>
  Effect.gen(function*() {
    const started = Date.now()
    const deadline = started + Duration.toMillis(within)
    while (!condition()) {
      if (Date.now() > deadline) return Number.POSITIVE_INFINITY
      yield* Effect.sleep("5 millis")
    }
    return Date.now() - started
  })

/** A store whose key lookups (`ApiKeysRepo.findByHash`) are counted, and its credential stamp. */
const countedStore = (store: Layer.Layer<any, unknown>) =>
  Effect.gen(function*() {
    const counted = countKeyReads(store)
    const context = yield* Layer.build(Layer.merge(store, counted.layer))
    return {
      layer: Layer.succeedContext(context),
      reads: counted.reads,
      stamp: credentialStamp(context as Context.Context<never>)
    }
  })

const revocationReachesBoth = (store: () => Layer.Layer<any, unknown>) =>
  Effect.gen(function*() {
    const watched = yield* countedStore(store())
    const first = yield* Layer.build(makeTestServer({ store: watched.layer }))
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
    // The first instance keeps verified keys (its store can tell when credentials change).
    expect(yield* heldWithin(() => watched.stamp() !== undefined, VERIFIED_KEY_MAX_AGE)).toBeLessThan(Number.POSITIVE_INFINITY)

    // Revoked through the other instance, after the first has verified (and kept) the key: read
    // once, then reused (on SQLite the first request's use record is a commit: read twice).
    const elsewhere = yield* mint(two)
    for (let i = 0; i < 2; i++) expect((yield* request(one, "GET", "/v2/insights", elsewhere.token, tenant.id)).status).toBe(200)
    const warm = watched.reads()
    for (let i = 0; i < 5; i++) expect((yield* request(one, "GET", "/v2/insights", elsewhere.token, tenant.id)).status).toBe(200)
    expect(watched.reads()).toBe(warm)
    const before = watched.stamp()
    expect((yield* request(two, "DELETE", `/v2/api-keys/${elsewhere.id}`, tenant.adminKey, tenant.id)).status).toBe(204)
    // SQLite: the stamp has moved already. Postgres: once the NOTIFY (sent at commit) arrives; within the bound.
    expect(yield* heldWithin(() => watched.stamp() !== before, VERIFIED_KEY_MAX_AGE)).toBeLessThan(Duration.toMillis(VERIFIED_KEY_MAX_AGE))
    expect((yield* request(one, "GET", "/v2/insights", elsewhere.token, tenant.id)).status).toBe(401)
    expect(watched.reads()).toBe(warm + 1)
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
    yield* revocationReachesBoth(() => SqliteStore.layer({ filename }))
  }).pipe(Effect.scoped), 60_000)

it.live("Postgres: a key revoked through one instance is refused by another at its first request after the notification, within the bound", () =>
  Effect.gen(function*() {
    const postgres = yield* startPostgres
    yield* revocationReachesBoth(() => PgStore.layer({ url: postgres.url }))
  }).pipe(Effect.scoped), 120_000)
