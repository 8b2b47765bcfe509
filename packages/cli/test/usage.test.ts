/** `costline usage import` and `costline usage report`, run as a user runs them, on a SQLite file. */
import { Actor, Core, Usage, UsageGroups } from "@costline/core"
import type { Ids } from "@costline/core"
import { SqliteStore } from "@costline/store-sqlite"
import { Effect, Layer, Schema } from "effect"
import { writeFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { costline, scratchDir } from "./support.js"

const ORG = "demo"
const DATABASE = "sqlite:data/costline.db"

const prepare = async () => {
  const dir = scratchDir()
  expect((await costline(dir, "seed", "--database", DATABASE)).code).toBe(0)
  return dir
}

const write = (dir: string, name: string, text: string) => {
  writeFileSync(join(dir, name), text)
  return name
}

const jsonl = (...rows: Array<Record<string, unknown>>) => rows.map((row) => JSON.stringify(row)).join("\n") + "\n"

const run = (dir: string, ...args: Array<string>) => costline(dir, ...args, "--database", DATABASE)

/** A set with groups ETL (budget 10) and BI (budget 100), made through core on the CLI's own file. */
const createSet = (dir: string) =>
  Effect.gen(function*() {
    const groups = yield* UsageGroups.UsageGroups
    const actor = Actor.Actor.system()
    const organization = ORG as Ids.OrganizationId
    const set = yield* groups.createSet(actor, organization, Schema.decodeUnknownSync(Usage.CreateUsageGroupSet)({ name: "Cost centers" }))
    const group = (name: string, order: number, budget: number) =>
      groups.createGroup(actor, organization, set.id, Schema.decodeUnknownSync(Usage.CreateUsageGroup)({
        name,
        order,
        budget,
        filter_expression: { operator: "and", filters: [{ field: { path: ["warehouse_name"] }, operator: "=", value: name }] }
      }))
    yield* group("ETL", 1, 10)
    yield* group("BI", 2, 100)
    return set.id
  }).pipe(
    Effect.provide(Core.layer.pipe(Layer.provideMerge(SqliteStore.layer({ filename: join(dir, "data/costline.db") })))),
    Effect.runPromise
  )

describe("costline usage", () => {
  it("imports JSON Lines and CSV, then reports a month with budget status, raising insights once", async () => {
    const dir = await prepare()
    const setId = await createSet(dir)
    const lines = write(dir, "usage.jsonl", jsonl(
      { start_time: "2024-05-01T08:00:00Z", credits: 6, warehouse_name: "ETL" },
      { start_time: "2024-05-02 09:00:00.123 -0700", credits: 40, warehouse_name: "BI", tags: { team: "bi" } }
    ))
    const first = await run(dir, "usage", "import", "--org", ORG, lines)
    expect(first).toMatchObject({ code: 0, stdout: "imported 2 usage rows into demo\n", stderr: "" })

    const csv = write(dir, "more.csv", [
      "\uFEFFstart_time,credits,warehouse_name,tags,is_serverless",
      "2024-05-20T00:00:00Z,5.5,ETL,\"{\"\"team\"\": \"\"data, ops\"\"}\",false",
      "2024-05-21T00:00:00Z,1,ML,,",
      "2024-06-01T00:00:00Z,99,ETL,,true"
    ].join("\r\n"))
    expect((await run(dir, "usage", "import", "--org", ORG, csv)).stdout).toBe("imported 3 usage rows into demo\n")

    const report = await run(dir, "usage", "report", "--org", ORG, "--set", setId, "--month", "2024-05")
    expect(report.code).toBe(0)
    expect(report.stdout.split("\n")).toEqual([
      `usage of 'Cost centers' (${setId}) in 2024-05, in credits`,
      "order  group           records  spent  budget  remaining  status",
      "1      ETL             2        11.5   10      -1.5       over_budget",
      "2      BI              1        40     100     60         on_track",
      "       (unattributed)  1        1",
      "1 group(s) over budget: 1 budget_exceeded insight(s) created or updated",
      ""
    ])
    const again = await run(dir, "usage", "report", "--org", ORG, "--set", setId, "--month", "2024-05")
    expect(again.stdout).toContain("1 group(s) over budget: 0 budget_exceeded insight(s) created or updated")
  })

  it("report --json: one object, credits unrounded", async () => {
    const dir = await prepare()
    const setId = await createSet(dir)
    const lines = write(dir, "usage.jsonl", jsonl(
      { start_time: "2024-05-01T08:00:00Z", credits: 6.123456789, warehouse_name: "ETL" },
      { start_time: "2024-05-02T08:00:00Z", credits: 5, warehouse_name: "ETL" },
      { start_time: "2024-05-03T08:00:00Z", credits: 0.5, warehouse_name: "ML" }
    ))
    await run(dir, "usage", "import", "--org", ORG, lines)
    const report = await run(dir, "usage", "report", "--org", ORG, "--set", setId, "--month", "2024-05", "--json")
    expect(report.code).toBe(0)
    const parsed = JSON.parse(report.stdout)
    expect(parsed).toMatchObject({
      set: { id: setId, name: "Cost centers" },
      month: "2024-05",
      unattributed: { records: 1, credits: 0.5 },
      over_budget: 1,
      budget_insights_changed: 1
    })
    expect(parsed.groups.map((g: { name: string; status: string }) => [g.name, g.status])).toEqual([["ETL", "over_budget"], ["BI", "on_track"]])
    expect(parsed.groups[0].spent).toBeCloseTo(11.123456789, 9)
  })

  it("a file with a bad row imports nothing and says which line, on one line; exit 1", async () => {
    const dir = await prepare()
    const setId = await createSet(dir)
    const bad = write(dir, "bad.jsonl", jsonl(
      { start_time: "2024-05-01T00:00:00Z", credits: 1, warehouse_name: "ETL" },
      { start_time: "2024-05-01T00:00:00Z", credits: "lots", warehouse_name: "ETL" }
    ))
    const failed = await run(dir, "usage", "import", "--org", ORG, bad)
    expect(failed.code).toBe(1)
    expect(failed.stderr.trim().split("\n")).toHaveLength(1)
    expect(failed.stderr).toContain("1 invalid row of 2, nothing was imported: line 2: credits:")
    const report = await run(dir, "usage", "report", "--org", ORG, "--set", setId, "--month", "2024-05")
    expect(report.stdout).toContain("1      ETL             0        0      10      10         on_track")
  })

  it("refuses what it cannot read: unknown format, missing file, unknown organization, set or month", async () => {
    const dir = await prepare()
    const text = write(dir, "usage.txt", "start_time,credits\n2024-05-01T00:00:00Z,1\n")
    const noFormat = await run(dir, "usage", "import", "--org", ORG, text)
    expect(noFormat.code).toBe(1)
    expect(noFormat.stderr).toContain("cannot tell the format of usage.txt")
    expect((await run(dir, "usage", "import", "--org", ORG, "--format", "csv", text)).stdout).toBe("imported 1 usage row into demo\n")
    const missing = await run(dir, "usage", "import", "--org", ORG, "nowhere.jsonl")
    expect(missing.code).toBe(1)
    expect(missing.stderr).toContain("cannot read nowhere.jsonl")
    const unknownOrg = await run(dir, "usage", "import", "--org", "nope", text, "--format", "csv")
    expect(unknownOrg.code).toBe(1)
    expect(unknownOrg.stderr).toContain("organization nope not found")
    const unknownSet = await run(dir, "usage", "report", "--org", ORG, "--set", "00000000-0000-4000-8000-000000000000", "--month", "2024-05")
    expect(unknownSet.code).toBe(1)
    expect(unknownSet.stderr).toContain("usage group set 00000000-0000-4000-8000-000000000000 not found")
    const badMonth = await run(dir, "usage", "report", "--org", ORG, "--set", "00000000-0000-4000-8000-000000000000", "--month", "May")
    expect(badMonth.code).toBe(2)
  })
})
