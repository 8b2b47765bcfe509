/**
 * Does a page of `GET /v2/insights` cost the same at any depth? 100,000 open insights, then the
 * p50 of `GET /v2/insights?status__in=open&max_results=50` at page 1 and at page 2,000 (the last),
 * through the real HTTP server, on each store.
 *
 *   npm run build && npx vite-node bench/insights-depth.ts            # SQLite file + embedded Postgres
 *   COSTLINE_BENCH_PG_URL=postgres://… npx vite-node bench/insights-depth.ts
 *
 * Insights are inserted with one multi-row INSERT per thousand (the ingestion path is not what is
 * measured); each carries the ETag `Insights.upsert` would give it. Both stores are ANALYZEd, as a
 * database in use would be. Page 1 and page 2,000 are requested in turn, so that whatever else the
 * machine does weighs on both alike. Results: a line per store, and bench/results/insights-depth.json.
 */
import { Actor, ApiKeys, Core, InsightETag, Organizations } from "@costline/core"
import type { Ids } from "@costline/core"
import { makeHandler } from "@costline/http"
import { PgStore } from "@costline/store-pg"
import { SqliteStore } from "@costline/store-sqlite"
import { SqlClient } from "@effect/sql/SqlClient"
import { Effect, Layer } from "effect"
import { randomUUID } from "node:crypto"
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { loadavg, tmpdir } from "node:os"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import { postgresServer } from "./lib/Stores.js"

const INSIGHTS = 100_000
const PAGE_SIZE = 50
const DEEP_PAGE = INSIGHTS / PAGE_SIZE
const SAMPLES = 201
const BATCH = 1_000
const ORG = "bench" as Ids.OrganizationId
const START = Date.parse("2024-01-01T00:00:00Z")

type Store = Layer.Layer<Core.Repositories | SqlClient, unknown>

interface Target {
  readonly name: string
  readonly store: () => Store
  /** How the store binds a boolean. */
  readonly boolean: (value: boolean) => boolean | number
  readonly close: () => Promise<void>
}

const row = (index: number, boolean: Target["boolean"]) => {
  const content = {
    status: "open" as const,
    assignee: null,
    title: `Warehouse WH_${index} is idle`,
    description: "Suspend it sooner.",
    severity: (["low", "medium", "high"] as const)[index % 3]!,
    is_current: true,
    resource_type: "warehouse",
    resource_id: `WH_${index}`,
    dw_id: `dw-${index % 7}`,
    connection_id: null,
    potential_savings: index % 500,
    details: { idle_hours: index % 24 }
  }
  const at = new Date(START + index * 1000).toISOString()
  return {
    id: randomUUID(),
    organization_id: ORG,
    insight_type: "warehouse_idle",
    ...content,
    is_current: boolean(content.is_current),
    details: JSON.stringify(content.details),
    create_time: at,
    update_time: at,
    view_count: 0,
    etag: InsightETag.forInsight(content)
  }
}

/** The organization, an admin key, and every insight; returns the key's token. */
const seed = (target: Target) =>
  Effect.gen(function*() {
    yield* (yield* Organizations.Organizations).create({ id: ORG, name: "Bench" })
    const { token } = yield* (yield* ApiKeys.ApiKeys).create(Actor.Actor.system(), ORG, { name: "bench", access: "admin", scopes: ["*"] })
    const sql = yield* SqlClient
    for (let from = 0; from < INSIGHTS; from += BATCH) {
      const rows = Array.from({ length: BATCH }, (_, n) => row(from + n, target.boolean))
      yield* sql`INSERT INTO insights ${sql.insert(rows)}`
    }
    yield* sql`ANALYZE`
    return token
  }).pipe(Effect.provide(Core.layer.pipe(Layer.provideMerge(target.store()))), Effect.scoped, Effect.runPromise)

const percentile = (samples: ReadonlyArray<number>, p: number) => {
  const sorted = [...samples].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!
}

interface Timings {
  readonly p50Ms: number
  readonly p95Ms: number
}

const timings = (samples: ReadonlyArray<number>): Timings => ({
  p50Ms: Number(percentile(samples, 50).toFixed(2)),
  p95Ms: Number(percentile(samples, 95).toFixed(2))
})

const measure = async (target: Target) => {
  const seedStarted = performance.now()
  const token = await seed(target)
  const seedSeconds = (performance.now() - seedStarted) / 1000

  const handler = makeHandler({ store: target.store(), rateLimit: false })
  const server = createServer(handler)
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v2/insights?status__in=open&max_results=${PAGE_SIZE}`
  const headers = { authorization: `Bearer ${token}`, "x-tenant-id": ORG }
  const get = async (pageToken: string | null) => {
    const started = performance.now()
    const response = await fetch(pageToken === null ? base : `${base}&page_token=${pageToken}`, { headers })
    const body = await response.json() as { items: Array<unknown>; page_token: string | null }
    if (response.status !== 200 || body.items.length !== PAGE_SIZE) throw new Error(`unexpected answer ${response.status}`)
    return { millis: performance.now() - started, next: body.page_token }
  }

  // Walk to the last page, keeping the token that reads it.
  let deepToken: string | null = null
  for (let page = 1; page < DEEP_PAGE; page++) deepToken = (await get(deepToken)).next
  const first: Array<number> = []
  const deep: Array<number> = []
  for (let n = 0; n < SAMPLES; n++) {
    first.push((await get(null)).millis)
    deep.push((await get(deepToken)).millis)
  }
  if ((await get(deepToken)).next !== null) throw new Error(`page ${DEEP_PAGE} is not the last`)

  await new Promise((resolve) => server.close(resolve))
  await handler.dispose()
  const result = {
    store: target.name,
    seedSeconds: Number(seedSeconds.toFixed(1)),
    firstPage: timings(first),
    lastPage: { page: DEEP_PAGE, ...timings(deep) }
  }
  console.log(
    `${target.name.padEnd(8)} page 1: p50 ${result.firstPage.p50Ms} ms, p95 ${result.firstPage.p95Ms} ms | ` +
      `page ${DEEP_PAGE}: p50 ${result.lastPage.p50Ms} ms, p95 ${result.lastPage.p95Ms} ms | seeded in ${result.seedSeconds} s`
  )
  return result
}

const sqliteTarget = (): Target => {
  const directory = mkdtempSync(join(tmpdir(), "costline-bench-"))
  const filename = join(directory, "bench.db")
  return {
    name: "SQLite",
    store: () => SqliteStore.layer({ filename }),
    boolean: (value) => (value ? 1 : 0),
    close: async () => rmSync(directory, { recursive: true, force: true })
  }
}

const postgresTarget = async (): Promise<Target> => {
  const server = await postgresServer()
  return { name: "Postgres", store: () => PgStore.layer({ url: server.url }), boolean: (value) => value, close: server.stop }
}

const results = []
for (const makeTarget of [async () => sqliteTarget(), postgresTarget]) {
  const target = await makeTarget()
  try {
    results.push(await measure(target))
  } finally {
    await target.close()
  }
}
const resultsDirectory = join(dirname(fileURLToPath(import.meta.url)), "results")
mkdirSync(resultsDirectory, { recursive: true })
writeFileSync(
  join(resultsDirectory, "insights-depth.json"),
  JSON.stringify(
    {
      insights: INSIGHTS,
      pageSize: PAGE_SIZE,
      samples: SAMPLES,
      node: process.version,
      loadAverage: Number(loadavg()[0]!.toFixed(1)),
      at: new Date().toISOString(),
      results
    },
    null,
    2
  ) + "\n"
)
