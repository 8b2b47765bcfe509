/**
 * `/metrics` reports the store's connections (`costline_store_connections`), sampled at each
 * scrape, on both stores: a held transaction shows as a connection in use, and on SQLite a second
 * one as waiting for the write lock.
 */
import { Transactor } from "@costline/core"
import type { Core } from "@costline/core"
import { Metrics } from "@costline/http"
import { PgStore } from "@costline/store-pg"
import { SqliteStore } from "@costline/store-sqlite"
import { layer } from "@effect/vitest"
import { Deferred, Duration, Effect, Layer, Option } from "effect"
import { expect } from "vitest"
import { startPostgres } from "./support/EmbeddedPostgres.js"
import { call, makeTestServer } from "./support/TestServer.js"

const connections = (text: string) =>
  Object.fromEntries(
    text.split("\n").flatMap((line) => {
      const match = /^costline_store_connections\{state="(\w+)"\} (\S+)$/.exec(line)
      return match === null ? [] : [[match[1]!, Number(match[2])]]
    })
  )

/** Scrapes until `ready` holds (or fails after 10 s): what the next scrape shows depends on other fibers. */
const scrapeUntil = (ready: (shown: Record<string, number>) => boolean) =>
  Effect.gen(function*() {
    const deadline = Date.now() + 10_000
    for (;;) {
      const scrape = yield* call("GET", "/metrics")
      expect(scrape.status).toBe(200)
      const shown = connections(scrape.text)
      if (ready(shown) || Date.now() > deadline) return shown
      yield* Effect.sleep(Duration.millis(10))
    }
  })

/** A transaction that holds its connection until `release` completes (the store's Transactor is in the server's context). */
const holdTransaction = (release: Deferred.Deferred<void>) =>
  Effect.flatMap(Effect.serviceOption(Transactor.Transactor), (tx) =>
    Effect.forkDaemon(Option.getOrThrow(tx).withTransaction(Deferred.await(release))))

const metrics = () => ({ metrics: Metrics.make(), exposeMetrics: true })

/** The server over `store`, with the store in the test's context too (one instance: layers are shared by reference). */
const serverOver = (store: Layer.Layer<Core.Repositories, unknown>) => Layer.merge(makeTestServer({ ...metrics(), store }), store)

layer(serverOver(SqliteStore.layer({ filename: ":memory:" })), { excludeTestServices: true })("store connections on SQLite", (it) => {
  it.effect("the one connection: in use while a transaction holds the write lock, another one waiting for it", () =>
    Effect.gen(function*() {
      expect(yield* scrapeUntil(() => true)).toEqual({ in_use: 0, idle: 1, waiting: 0, max: 1 })
      const release = yield* Deferred.make<void>()
      const first = yield* holdTransaction(release)
      expect(yield* scrapeUntil((shown) => shown.in_use === 1)).toEqual({ in_use: 1, idle: 0, waiting: 0, max: 1 })
      const second = yield* holdTransaction(release)
      expect(yield* scrapeUntil((shown) => shown.waiting === 1)).toEqual({ in_use: 1, idle: 0, waiting: 1, max: 1 })
      yield* Deferred.succeed(release, undefined)
      yield* first.await
      yield* second.await
      expect(yield* scrapeUntil((shown) => shown.in_use === 0)).toEqual({ in_use: 0, idle: 1, waiting: 0, max: 1 })
    }))
})

const pgServer = Layer.unwrapScoped(
  Effect.map(startPostgres, (postgres) =>
    serverOver(PgStore.layer({ url: postgres.url, maxConnections: 4 })))
)

layer(pgServer, { excludeTestServices: true, timeout: 120_000 })("store connections on Postgres", (it) => {
  it.effect("this instance's pool: a held transaction is a connection in use, out of the configured maximum", () =>
    Effect.gen(function*() {
      const before = yield* scrapeUntil(() => true)
      expect(before).toMatchObject({ in_use: 0, max: 4 })
      expect(before.idle).toBeGreaterThanOrEqual(1)
      expect(before.waiting).toBeUndefined()
      const release = yield* Deferred.make<void>()
      const held = yield* holdTransaction(release)
      expect(yield* scrapeUntil((shown) => shown.in_use === 1)).toMatchObject({ in_use: 1, max: 4 })
      yield* Deferred.succeed(release, undefined)
      yield* held.await
      expect(yield* scrapeUntil((shown) => shown.in_use === 0)).toMatchObject({ in_use: 0, max: 4 })
    }))
})
