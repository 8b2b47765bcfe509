/**
 * `costline ingest dw` beside another writer on one SQLite file: the ingestion runs as a real
 * process, staging its usage records a short transaction at a time, while this (second) process
 * writes and reads through the store as a server would. Writes made meanwhile succeed; readers see
 * the earlier records until the ingestion publishes, then only the new ones; an interrupted
 * ingestion publishes nothing, leaves nothing staged, and the next one runs.
 */
import { Actor, Core, DwExportGenerator, Team, Teams, UsageRepo } from "@costline/core"
import type { Ids } from "@costline/core"
import { SqliteStore } from "@costline/store-sqlite"
import { SqlClient } from "@effect/sql/SqlClient"
import { Effect, Layer, ManagedRuntime, Schema } from "effect"
import { type ChildProcess, spawn } from "node:child_process"
import { writeFileSync } from "node:fs"
import { join } from "node:path"
import { afterEach, describe, expect, it } from "vitest"
import { BIN, costline, scratchDir } from "./support.js"

const ORG = "demo" as Ids.OrganizationId
const DATABASE = "sqlite:data/costline.db"
const system = Actor.Actor.system()
const { generateExports, METERING_HEADER, QUERY_HEADER, toCsv } = DwExportGenerator

// About 11,000 queries: more than ten batches to stage.
const generated = generateExports({ days: 10, controls: 1 })
/** Three ingestions of ten days each, on a machine that may be busy. */
const TIMEOUT = 600_000
const queriesCsv = toCsv(QUERY_HEADER, generated.queries())
const queryIds = queriesCsv.trimEnd().split("\n").slice(1).map((line) => line.split(",")[0]!)
  .filter((id) => /^[0-9a-f-]+$/.test(id))

const openStore = (dir: string) =>
  ManagedRuntime.make(Core.layer.pipe(Layer.provideMerge(SqliteStore.layer({ filename: join(dir, "data/costline.db") }))))

type Store = ReturnType<typeof openStore>

const count = (store: Store, table: string) =>
  store.runPromise(Effect.flatMap(SqlClient, (sql) => sql<{ n: number }>`SELECT count(*) AS n FROM ${sql(table)}`)).then(
    ([row]) => Number(row!.n)
  )

/**
 * What attribution reads of March 2024: the visible records and the credits of the queries among
 * them (all records together always sum to the metered credits; the queries' part is what the
 * attribution file changes).
 */
const visible = (store: Store) =>
  store.runPromise(Effect.gen(function*() {
    const repo = yield* UsageRepo.UsageRecordsRepo
    const seen = { count: 0, credits: 0 }
    yield* repo.scan({ organizationId: ORG, from: new Date("2024-03-01T00:00:00Z"), to: new Date("2024-04-01T00:00:00Z") }, (batch) =>
      Effect.sync(() => {
        seen.count += batch.length
        for (const record of batch) if (record.tags === undefined) seen.credits += record.credits
      }))
    return seen
  }))

const exited = (child: ChildProcess) =>
  new Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string; stdout: string }>((resolve) => {
    let stdout = ""
    let stderr = ""
    child.stdout!.on("data", (chunk: Buffer) => (stdout += chunk.toString()))
    child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()))
    child.once("exit", (code, signal) => resolve({ code, signal, stderr, stdout }))
  })

const eventually = async (condition: () => Promise<boolean>, ms: number, what: string) => {
  const deadline = Date.now() + ms
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

const stores: Array<Store> = []
afterEach(async () => {
  await Promise.all(stores.splice(0).map((store) => store.dispose()))
})

const INGEST = ["ingest", "dw", "--org", ORG, "--metering", "metering.csv", "--queries", "queries.csv"]

/** A seeded file with one ingestion published, and the files of a second one that prices every query at 0.001. */
const prepare = async () => {
  const dir = scratchDir()
  expect((await costline(dir, "seed", "--database", DATABASE)).code).toBe(0)
  writeFileSync(join(dir, "metering.csv"), toCsv(METERING_HEADER, generated.metering()))
  writeFileSync(join(dir, "queries.csv"), queriesCsv)
  writeFileSync(
    join(dir, "attribution.csv"),
    `QUERY_ID,WAREHOUSE_NAME,START_TIME,END_TIME,CREDITS_ATTRIBUTED_COMPUTE\n${queryIds.map((id) => `${id},,,,0.001\n`).join("")}`
  )
  expect((await costline(dir, ...INGEST, "--database", DATABASE)).code).toBe(0)
  const store = openStore(dir)
  stores.push(store)
  return { dir, store, before: await visible(store) }
}

const start = (dir: string, ...args: Array<string>) => {
  const child = spawn(process.execPath, [BIN, ...args, "--database", DATABASE], { cwd: dir })
  return { child, result: exited(child) }
}

const close = (a: number, b: number) => Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(b))

describe("ingest dw beside another writer on one SQLite file", () => {
  it("writes of the other process succeed while it stages; readers see the earlier records until it publishes, then the new ones", async () => {
    const { before, dir, store } = await prepare()
    expect(before.count).toBeGreaterThan(10_000)
    const { result } = start(dir, ...INGEST, "--attribution", "attribution.csv")
    let finished = false
    void result.then(() => (finished = true))
    await eventually(async () => finished || (await count(store, "usage_imports")) > 0, 120_000, "the ingestion to stage")

    const outcomes: Array<string> = []
    const reads: Array<{ count: number; credits: number }> = []
    while (!finished) {
      outcomes.push(
        await store.runPromise(Effect.flatMap(Teams.Teams, (teams) =>
          teams.create(system, ORG, Schema.decodeUnknownSync(Team.CreateTeam)({ name: `written meanwhile ${outcomes.length}` })))).then(
          () => "ok",
          (error: unknown) => String(error)
        )
      )
      reads.push(await visible(store))
      // Both resolve in microtasks when nothing waited: let the child's exit be noticed.
      await new Promise((resolve) => setImmediate(resolve))
    }
    const { code, stdout } = await result
    const after = await visible(store)

    expect(code).toBe(0)
    expect(stdout).toMatch(/^ingested into demo: /)
    expect(outcomes.length).toBeGreaterThan(2)
    expect(outcomes.filter((outcome) => outcome !== "ok")).toEqual([])
    // The same records either way (each query and idle hour once); the credits of the earlier or of the new run.
    expect(after.count).toBe(before.count)
    expect(close(after.credits, before.credits)).toBe(false)
    for (const read of reads) {
      expect(read.count).toBe(before.count)
      expect(close(read.credits, before.credits) || close(read.credits, after.credits)).toBe(true)
    }
    // Staging was seen, not only its end: the first reads saw the earlier records.
    expect(close(reads[0]!.credits, before.credits)).toBe(true)
    expect(await count(store, "usage_imports")).toBe(0)
    // The replaced records are gone from the table, not only hidden.
    expect(await count(store, "usage_records")).toBe(before.count)
  }, TIMEOUT)

  it("interrupted while it stages: nothing published, nothing left staged, and the next run works", async () => {
    const { before, dir, store } = await prepare()
    const auditBefore = await count(store, "audit_records")
    const { child, result } = start(dir, ...INGEST, "--attribution", "attribution.csv")
    let finished = false
    void result.then(() => (finished = true))
    await eventually(async () => finished || (await count(store, "usage_imports")) > 0, 120_000, "the ingestion to stage")
    expect(finished).toBe(false)
    child.kill("SIGINT")
    // Interrupted, it says nothing of an ingestion (its exit code is the runtime's for an interruption).
    expect((await result).stdout).toBe("")

    const after = await visible(store)
    expect(after.count).toBe(before.count)
    expect(close(after.credits, before.credits)).toBe(true)
    expect(await count(store, "usage_imports")).toBe(0)
    expect(await count(store, "usage_records")).toBe(before.count)
    expect(await count(store, "audit_records")).toBe(auditBefore)

    const again = await costline(dir, ...INGEST, "--attribution", "attribution.csv", "--database", DATABASE)
    expect(again.code).toBe(0)
    expect(close((await visible(store)).credits, before.credits)).toBe(false)
  }, TIMEOUT)
})
