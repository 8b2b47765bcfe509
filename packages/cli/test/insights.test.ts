/** `costline insights import` and the demo insights of `costline seed`, run as a user runs them, on a SQLite file. */
import { Core, Insights } from "@costline/core"
import type { Ids, Insight } from "@costline/core"
import { SqliteStore } from "@costline/store-sqlite"
import { Effect, Layer } from "effect"
import { writeFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { describeBadLines, parseInsightLines } from "../src/InsightsFile.js"
import { costline, insightLine, lastLine, scratchDir } from "./support.js"

const ORG = "demo"
const DATABASE = "sqlite:data/costline.db"

const run = (dir: string, ...args: Array<string>) => costline(dir, ...args, "--database", DATABASE)

const prepare = async () => {
  const dir = scratchDir()
  expect((await run(dir, "seed")).code).toBe(0)
  return dir
}

const write = (dir: string, name: string, lines: ReadonlyArray<string>) => {
  writeFileSync(join(dir, name), lines.join("\n") + "\n")
  return name
}

/** Every insight of the organization, read through core on the CLI's own file. */
const storedInsights = (dir: string) =>
  Effect.gen(function*() {
    const insights = yield* Insights.Insights
    const page = yield* insights.list(ORG as Ids.OrganizationId, { filters: {}, sort_by: "create_time", sort_order: "asc", max_results: 500 })
    return page.items
  }).pipe(
    Effect.provide(Core.layer.pipe(Layer.provideMerge(SqliteStore.layer({ filename: join(dir, "data/costline.db") })))),
    Effect.runPromise
  )

const byResource = (items: ReadonlyArray<Insight.Insight>, resourceId: string) => items.find((item) => item.resource_id === resourceId)

describe("costline insights import", () => {
  it("creates, updates and keeps insights, and says how many of each", async () => {
    const dir = await prepare()
    const seeded = (await storedInsights(dir)).length
    const first = await run(dir, "insights", "import", "--org", ORG, write(dir, "a.jsonl", [insightLine("WH_A"), "", insightLine("WH_B")]))
    expect(first).toMatchObject({ code: 0, stderr: "", stdout: "imported 2 insights into demo: 2 created, 0 updated, 0 unchanged\n" })

    const again = write(dir, "b.jsonl", [insightLine("WH_A"), insightLine("WH_B", { potential_savings: 75 }), insightLine("WH_C")])
    const second = await run(dir, "insights", "import", "--org", ORG, again)
    expect(second.stdout).toBe("imported 3 insights into demo: 1 created, 1 updated, 1 unchanged\n")

    const stored = await storedInsights(dir)
    expect(stored).toHaveLength(seeded + 3)
    expect(byResource(stored, "WH_B")).toMatchObject({ potential_savings: 75, status: "open", title: "WH_B is idle" })
  })

  it("a bad line fails the import, naming its line number, and nothing is imported", async () => {
    const dir = await prepare()
    const seeded = (await storedInsights(dir)).length
    const file = write(dir, "bad.jsonl", [insightLine("WH_A"), insightLine("WH_B"), "", insightLine("WH_C", { severity: "critical" }), "{oops", insightLine("WH_D")])
    const result = await run(dir, "insights", "import", "--org", ORG, file)
    expect(result.code).toBe(1)
    expect(result.stdout).toBe("")
    expect(result.stderr.trim().split("\n")).toHaveLength(1)
    expect(result.stderr).toContain("line 4: severity: ")
    expect(result.stderr).toContain("(and 1 more bad line: 5); nothing was imported")
    expect(await storedInsights(dir)).toHaveLength(seeded)
  })

  it("a bad line late in a large file: nothing is imported, and the bad lines are counted", async () => {
    const dir = await prepare()
    const seeded = (await storedInsights(dir)).length
    const good = Array.from({ length: 3000 }, (_, i) => insightLine(`WH_${i}`))
    const bad = Array.from({ length: 12 }, () => "{oops")
    const file = write(dir, "late.jsonl", [...good, insightLine("WH_X", { severity: "critical" }), ...bad])
    const result = await run(dir, "insights", "import", "--org", ORG, file)
    expect(result.code).toBe(1)
    expect(result.stderr).toContain("line 3001: severity: ")
    expect(result.stderr).toContain(
      "(and 12 more bad lines: 3002, 3003, 3004, 3005, 3006, 3007, 3008, 3009, 3010, 3011, ...); nothing was imported"
    )
    expect(await storedInsights(dir)).toHaveLength(seeded)
  })

  it("an unknown organization or an unreadable file is a failure; a missing argument a usage error", async () => {
    const dir = await prepare()
    const file = write(dir, "ok.jsonl", [insightLine("WH_A")])
    const unknown = await run(dir, "insights", "import", "--org", "nope", file)
    expect(unknown.code).toBe(1)
    expect(unknown.stderr).toContain("organization nope not found")
    const missing = await run(dir, "insights", "import", "--org", ORG, "missing.jsonl")
    expect(missing.code).toBe(1)
    expect(missing.stderr).toContain("cannot read missing.jsonl")
    expect((await run(dir, "insights", "import", "--org", ORG)).code).toBe(2)
  })
})

describe("costline seed", () => {
  it("adds demo insights of several types once, however often it runs", async () => {
    const dir = await prepare()
    const again = await run(dir, "seed")
    expect(again.stdout).toContain("and 7 demo insights")
    expect(lastLine(again.stdout)).toMatch(/^clk_/)
    const stored = await storedInsights(dir)
    expect(stored).toHaveLength(7)
    expect(new Set(stored.map((item) => item.insight_type)).size).toBe(7)
    expect(stored.every((item) => item.status === "open" && item.dw_id === "demo-dw")).toBe(true)
  })
})

describe("parseInsightLines", () => {
  it("ignores blank lines and a byte order mark, and numbers lines as an editor does", () => {
    const parsed = parseInsightLines(`\uFEFF${insightLine("A")}\r\n\r\n   \n${insightLine("B", { title: " " })}\n{}`)
    expect(parsed._tag).toBe("Left")
    if (parsed._tag === "Left") {
      expect(parsed.left.map((bad) => bad.line)).toEqual([4, 5])
      expect(parsed.left[0]!.problem).toContain("title")
      expect(parsed.left[1]!.problem).toContain("is missing")
    }
  })

  it("refuses unknown fields, which would otherwise be silently dropped", () => {
    const parsed = parseInsightLines(insightLine("A", { status: "resolved" }))
    expect(parsed._tag === "Left" && parsed.left[0]).toMatchObject({ line: 1, problem: expect.stringContaining("status") })
  })

  it("describes many bad lines in one line, listing the first ten numbers", () => {
    const bad = Array.from({ length: 13 }, (_, index) => ({ line: index + 1, problem: "not valid JSON" }))
    expect(describeBadLines([bad[0]!, ...bad.slice(1)])).toBe(
      "line 1: not valid JSON (and 12 more bad lines: 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, ...); nothing was imported"
    )
  })
})
