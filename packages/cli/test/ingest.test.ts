/** `costline ingest dw`, run as a user runs it, on a SQLite file and on Postgres. */
import { DwExportGenerator } from "@costline/core"
import { readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { costline, costlineWith, scratchDir } from "./support.js"

const ORG = "demo"
const DATABASE = "sqlite:data/costline.db"
const { generateExports, METERING_HEADER, QUERY_HEADER, toCsv, toJsonLines } = DwExportGenerator

const generated = generateExports({ days: 10, controls: 1 })

const prepare = async () => {
  const dir = scratchDir()
  expect((await costline(dir, "seed", "--database", DATABASE)).code).toBe(0)
  writeFileSync(join(dir, "metering.csv"), toCsv(METERING_HEADER, generated.metering()))
  writeFileSync(join(dir, "queries.csv"), toCsv(QUERY_HEADER, generated.queries()))
  writeFileSync(join(dir, "queries.jsonl"), toJsonLines(generated.queries()))
  return dir
}

const run = (dir: string, ...args: Array<string>) => costline(dir, ...args, "--database", DATABASE)

describe("costline ingest dw", () => {
  it("ingests CSV and JSON Lines exports, prints a summary, and re-ingests idempotently", async () => {
    const dir = await prepare()
    const first = await run(dir, "ingest", "dw", "--org", ORG, "--metering", "metering.csv", "--queries", "queries.csv")
    expect(first.stderr).toBe("")
    expect(first.code).toBe(0)
    const lines = first.stdout.trimEnd().split("\n")
    expect(lines[0]).toMatch(/^ingested into demo: \d+ queries, \d+ warehouse-hours \(\d+ metering rows\)$/)
    const compute = Number(/credits: ([\d.]+) compute/.exec(lines[1]!)![1])
    expect(Math.abs(compute - generated.computeCredits) / generated.computeCredits).toBeLessThan(1e-4)
    expect(lines[3]).toMatch(new RegExp(`: ${generated.planted.length} created, 0 updated, 0 unchanged, 0 no longer current$`))

    const again = await run(dir, "ingest", "dw", "--org", ORG, "--metering", "metering.csv", "--queries", "queries.jsonl", "--window", "30d")
    expect(again.code).toBe(0)
    expect(again.stdout.trimEnd().split("\n")[3]).toMatch(new RegExp(`: 0 created, 0 updated, ${generated.planted.length} unchanged, 0 no longer current$`))
  })

  it("rejects bad lines of every file, naming each, and writes nothing", async () => {
    const dir = await prepare()
    writeFileSync(join(dir, "bad.csv"), `${METERING_HEADER.join(",")}\nyesterday,x,1,WH,1,1,0\n2024-03-01 00:00,2024-03-01 01:00,1,WH,1,-2,0\n`)
    const failed = await run(dir, "ingest", "dw", "--org", ORG, "--metering", "bad.csv", "--queries", "queries.jsonl")
    expect(failed.code).toBe(1)
    expect(failed.stderr).toContain("metering line 2: START_TIME must be a timestamp")
    expect(failed.stderr).toContain("metering line 3: CREDITS_USED_COMPUTE must not be negative")
    expect(failed.stderr).toMatch(/costline: ValidationFailed: 2 invalid rows of \d+, nothing was ingested/)
    // Nothing was written: a good run afterwards creates every insight.
    const good = await run(dir, "ingest", "dw", "--org", ORG, "--metering", "metering.csv", "--queries", "queries.jsonl")
    expect(good.stdout).toContain(`${generated.planted.length} created`)
  })

  it("a missing column, an unknown format and a bad window are one-line failures", async () => {
    const dir = await prepare()
    writeFileSync(join(dir, "nocol.csv"), "START_TIME,END_TIME\n")
    const missing = await run(dir, "ingest", "dw", "--org", ORG, "--metering", "nocol.csv", "--queries", "queries.jsonl")
    expect(missing).toMatchObject({ code: 1 })
    expect(missing.stderr).toContain("the header lacks the columns WAREHOUSE_ID, WAREHOUSE_NAME")
    writeFileSync(join(dir, "m.txt"), "")
    expect((await run(dir, "ingest", "dw", "--org", ORG, "--metering", "m.txt", "--queries", "queries.jsonl")).stderr)
      .toContain("cannot tell the format of m.txt")
    expect((await run(dir, "ingest", "dw", "--org", ORG, "--metering", "metering.csv", "--queries", "queries.jsonl", "--window", "soon")).stderr)
      .toContain("--window must be a number of days such as 30d, not 'soon'")
  })
})

describe("the heap of costline ingest dw and costline serve", () => {
  // A preloaded module records the V8 flags of the process that finally runs the command.
  const processOf = async (nodeOptions: string, env: Record<string, string>, ...args: Array<string>) => {
    const dir = scratchDir()
    const probe = join(dir, "probe.cjs")
    const out = join(dir, "flags.json")
    writeFileSync(
      probe,
      `process.on("exit", () => require("node:fs").writeFileSync(${JSON.stringify(out)}, ` +
        `JSON.stringify({ flags: process.execArgv, arenas: process.env.MALLOC_ARENA_MAX ?? null })))`
    )
    const result = await costlineWith(dir, { NODE_OPTIONS: `--require ${probe} ${nodeOptions}`, ...env }, ...args)
    expect(result.code).toBe(0)
    return JSON.parse(readFileSync(out, "utf8")) as { flags: Array<string>; arenas: string | null }
  }
  const flagsOf = async (nodeOptions: string, ...args: Array<string>) => (await processOf(nodeOptions, {}, ...args)).flags

  it("runs with small semi-spaces (re-executed with --max-semi-space-size=4); other commands as started", async () => {
    expect(await flagsOf("", "ingest", "dw", "--help")).toContain("--max-semi-space-size=4")
    expect(await flagsOf("", "--version")).not.toContain("--max-semi-space-size=4")
  })

  it("a semi-space size the user set wins", async () => {
    expect(await flagsOf("--max-semi-space-size=16", "ingest", "dw", "--help")).not.toContain("--max-semi-space-size=4")
    expect(await flagsOf("--max-semi-space-size=16", "serve", "--help")).not.toContain("--max-semi-space-size=4")
  })

  it("serve runs with small semi-spaces too (its young generation was most of its peak RSS under load)", async () => {
    expect(await flagsOf("", "serve", "--help")).toContain("--max-semi-space-size=4")
  })

  it("serve and ingest dw run with two malloc arenas unless the user chose; other commands as started", async () => {
    expect((await processOf("", {}, "serve", "--help")).arenas).toBe("2")
    expect((await processOf("", {}, "ingest", "dw", "--help")).arenas).toBe("2")
    // A semi-space size of the user's alone still re-executes, for the arenas only.
    const sized = await processOf("--max-semi-space-size=16", {}, "serve", "--help")
    expect(sized).toEqual({ flags: expect.not.arrayContaining(["--max-semi-space-size=4"]), arenas: "2" })
    expect((await processOf("", { MALLOC_ARENA_MAX: "8" }, "serve", "--help")).arenas).toBe("8")
    expect((await processOf("", {}, "--version")).arenas).toBe(null)
  })
})

describe("costline ingest demo", () => {
  it("loads a generated month into the demo organization: usage and the planted insights", async () => {
    const dir = scratchDir()
    expect((await costline(dir, "seed", "--database", DATABASE)).code).toBe(0)
    const demo = await run(dir, "ingest", "demo", "--days", "10")
    expect(demo.code).toBe(0)
    const planted = generateExports({ days: 10, controls: 3 }).planted.length
    expect(demo.stdout).toContain(`${planted} created, 0 updated, 0 unchanged`)
  })
})
