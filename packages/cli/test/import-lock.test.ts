/**
 * Long imports beside a writer: `costline insights import` and `costline usage import` run as
 * real processes on the SQLite file that this (second) process writes to through the store, as a
 * server would. The imports hold the write lock for a short batch at a time, so the writes made
 * meanwhile succeed; and an import that fails late leaves nothing published and nothing staged.
 */
import { Actor, Core, Insight, Insights, Team, Teams } from "@costline/core"
import type { Ids } from "@costline/core"
import { SqliteStore } from "@costline/store-sqlite"
import { SqlClient } from "@effect/sql/SqlClient"
import { Effect, Layer, ManagedRuntime, Schema } from "effect"
import { type ChildProcess, spawn } from "node:child_process"
import { writeFileSync } from "node:fs"
import { join } from "node:path"
import { afterEach, describe, expect, it } from "vitest"
import { BIN, costline, insightLine, scratchDir } from "./support.js"

const ORG = "demo" as Ids.OrganizationId
const DATABASE = "sqlite:data/costline.db"
const system = Actor.Actor.system()

/** The other process: the store on the same file, as `costline serve` would open it. */
const openStore = (dir: string) =>
  ManagedRuntime.make(Core.layer.pipe(Layer.provideMerge(SqliteStore.layer({ filename: join(dir, "data/costline.db") }))))

type Store = ReturnType<typeof openStore>

const count = (store: Store, table: string) =>
  store.runPromise(Effect.flatMap(SqlClient, (sql) => sql<{ n: number }>`SELECT count(*) AS n FROM ${sql(table)}`)).then(
    ([row]) => Number(row!.n)
  )

const exited = (child: ChildProcess) =>
  new Promise<{ code: number | null; stderr: string; stdout: string }>((resolve) => {
    let stdout = ""
    let stderr = ""
    child.stdout!.on("data", (chunk: Buffer) => (stdout += chunk.toString()))
    child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()))
    child.once("exit", (code) => resolve({ code, stderr, stdout }))
  })

/** Polls `condition` until it holds; fails after `ms`. */
const eventually = async (condition: () => Promise<boolean>, ms: number, what: string) => {
  const deadline = Date.now() + ms
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

/** Writes through the store until `done`, one at a time; every outcome is kept. */
const writeUntil = async (done: () => boolean, write: (index: number) => Promise<unknown>) => {
  const outcomes: Array<"ok" | string> = []
  while (!done()) {
    outcomes.push(await write(outcomes.length).then(() => "ok", (error: unknown) => String(error)))
    // A write that never waited resolves in microtasks: let the child's exit be noticed.
    await new Promise((resolve) => setImmediate(resolve))
  }
  return outcomes
}

const stores: Array<Store> = []
afterEach(async () => {
  await Promise.all(stores.splice(0).map((store) => store.dispose()))
})

const prepare = async () => {
  const dir = scratchDir()
  expect((await costline(dir, "seed", "--database", DATABASE)).code).toBe(0)
  const store = openStore(dir)
  stores.push(store)
  return { dir, store }
}

const start = (dir: string, ...args: Array<string>) => {
  const child = spawn(process.execPath, [BIN, ...args, "--database", DATABASE], { cwd: dir })
  return { child, result: exited(child) }
}

describe("imports beside another writer on one SQLite file", () => {
  it("insights import: writes of the other process succeed while it runs; its insights appear at once when it publishes", async () => {
    const { dir, store } = await prepare()
    const before = await count(store, "insights")
    const lines = 4 * 2000 + 7
    writeFileSync(join(dir, "insights.jsonl"), Array.from({ length: lines }, (_, i) => insightLine(`WH_${i}`)).join("\n") + "\n")

    const { result } = start(dir, "insights", "import", "--org", ORG, "insights.jsonl")
    let finished = false
    void result.then(() => (finished = true))
    await eventually(async () => finished || (await count(store, "insight_imports")) > 0, 120_000, "the import to stage")
    const upsert = (i: number) =>
      store.runPromise(Effect.flatMap(Insights.Insights, (insights) =>
        insights.upsert(system, ORG, Schema.decodeUnknownSync(Insight.InsightUpsert)(JSON.parse(insightLine(`API_${i}`))))))
    const outcomes = await writeUntil(() => finished, upsert)
    const { code, stdout } = await result

    expect({ code, stdout }).toEqual({ code: 0, stdout: `imported ${lines} insights into demo: ${lines} created, 0 updated, 0 unchanged\n` })
    // Written while the import staged (and published): none waited out the lock or failed.
    expect(outcomes.length).toBeGreaterThan(2)
    expect(outcomes.filter((outcome) => outcome !== "ok")).toEqual([])
    expect(await count(store, "insights")).toBe(before + lines + outcomes.length)
    expect(await count(store, "staged_insights")).toBe(0)
    expect(await count(store, "insight_imports")).toBe(0)
  })

  it("insights import: a bad line after thirty batches were staged fails it, and nothing is published or left staged", async () => {
    const { dir, store } = await prepare()
    const before = await count(store, "insights")
    const auditBefore = await count(store, "audit_records")
    // Read once: the good lines are staged as they are read, the last one (not JSON) discards them.
    const good = Array.from({ length: 30 * 2000 }, (_, i) => insightLine(`WH_${i}`))
    writeFileSync(join(dir, "insights.jsonl"), [...good, "{oops"].join("\n") + "\n")

    const { result } = start(dir, "insights", "import", "--org", ORG, "insights.jsonl")
    let finished = false
    void result.then(() => (finished = true))
    let staged = false
    await eventually(async () => (staged = (await count(store, "staged_insights")) > 0) || finished, 120_000, "a staged batch")
    const write = await store.runPromise(Effect.flatMap(Teams.Teams, (teams) =>
      teams.create(system, ORG, Schema.decodeUnknownSync(Team.CreateTeam)({ name: "written meanwhile" }))))
    const { code, stderr, stdout } = await result

    expect(code).toBe(1)
    expect(stdout).toBe("")
    expect(staged).toBe(true)
    expect(stderr).toContain(`line ${good.length + 1}: not valid JSON; nothing was imported`)
    expect(write.name).toBe("written meanwhile")
    expect(await count(store, "insights")).toBe(before)
    expect(await count(store, "audit_records")).toBe(auditBefore + 1)
    expect(await count(store, "staged_insights")).toBe(0)
    expect(await count(store, "staged_insight_audit")).toBe(0)
    expect(await count(store, "insight_imports")).toBe(0)
  })

  it("usage import of 100,000 rows: writes of the other process succeed while it stages and publishes", async () => {
    const { dir, store } = await prepare()
    const rows = 100_000
    const day = (i: number) => `2024-05-${String(1 + (i % 28)).padStart(2, "0")}T10:00:00Z`
    writeFileSync(
      join(dir, "usage.jsonl"),
      Array.from({ length: rows }, (_, i) => JSON.stringify({ start_time: day(i), credits: 1, warehouse_name: `WH_${i % 50}` }))
        .join("\n") + "\n"
    )
    const { result } = start(dir, "usage", "import", "--org", ORG, "usage.jsonl")
    let finished = false
    void result.then(() => (finished = true))
    await eventually(async () => finished || (await count(store, "usage_imports")) > 0, 120_000, "the import to stage")
    const createTeam = (i: number) =>
      store.runPromise(Effect.flatMap(Teams.Teams, (teams) =>
        teams.create(system, ORG, Schema.decodeUnknownSync(Team.CreateTeam)({ name: `written meanwhile ${i}` }))))
    const outcomes = await writeUntil(() => finished, createTeam)
    const { code, stdout } = await result

    expect({ code, stdout }).toEqual({ code: 0, stdout: `imported ${rows} usage rows into demo\n` })
    expect(outcomes.length).toBeGreaterThan(2)
    expect(outcomes.filter((outcome) => outcome !== "ok")).toEqual([])
    expect(await count(store, "usage_records")).toBe(rows)
    expect(await count(store, "usage_imports")).toBe(0)
  })
})
