/**
 * Long imports beside a writer: `costline insights import` and `costline usage import` run as
 * real processes on the SQLite file that this (second) process writes to through the store, as a
 * server would. The imports hold the write lock for a short batch at a time, so the writes made
 * meanwhile succeed; and an import that fails late leaves nothing published and nothing staged.
 */
import { Actor, Insight, Insights, Team, Teams } from "@costline/core"
import { Effect, Schema } from "effect"
import { writeFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { insightLine } from "./support.js"
import { count, eventually, ORG, start, useStores, writeUntil } from "./twoProcesses.js"

const system = Actor.Actor.system()
const { seeded: prepare } = useStores()

describe("imports beside another writer on one SQLite file", () => {
  it("insights import: writes of the other process succeed while it runs; its insights appear at once when it publishes", async () => {
    const { dir, store } = await prepare()
    const before = await count(store, "insights")
    const lines = 4 * 2000 + 7
    writeFileSync(join(dir, "insights.jsonl"), Array.from({ length: lines }, (_, i) => insightLine(`WH_${i}`)).join("\n") + "\n")

    const { finished, result } = start(dir, "insights", "import", "--org", ORG, "insights.jsonl")
    await eventually(async () => finished() || (await count(store, "insight_imports")) > 0, 120_000, "the import to stage")
    const upsert = (i: number) =>
      store.runPromise(Effect.flatMap(Insights.Insights, (insights) =>
        insights.upsert(system, ORG, Schema.decodeUnknownSync(Insight.InsightUpsert)(JSON.parse(insightLine(`API_${i}`))))))
    const outcomes = await writeUntil(finished, upsert)
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

    const { finished, result } = start(dir, "insights", "import", "--org", ORG, "insights.jsonl")
    let staged = false
    await eventually(async () => (staged = (await count(store, "staged_insights")) > 0) || finished(), 120_000, "a staged batch")
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
    const { finished, result } = start(dir, "usage", "import", "--org", ORG, "usage.jsonl")
    await eventually(async () => finished() || (await count(store, "usage_imports")) > 0, 120_000, "the import to stage")
    const createTeam = (i: number) =>
      store.runPromise(Effect.flatMap(Teams.Teams, (teams) =>
        teams.create(system, ORG, Schema.decodeUnknownSync(Team.CreateTeam)({ name: `written meanwhile ${i}` }))))
    const outcomes = await writeUntil(finished, createTeam)
    const { code, stdout } = await result

    expect({ code, stdout }).toEqual({ code: 0, stdout: `imported ${rows} usage rows into demo\n` })
    expect(outcomes.length).toBeGreaterThan(2)
    expect(outcomes.filter((outcome) => outcome !== "ok")).toEqual([])
    expect(await count(store, "usage_records")).toBe(rows)
    expect(await count(store, "usage_imports")).toBe(0)
  })
})
