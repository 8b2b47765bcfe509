/**
 * Scale of `costline ingest dw`: generated exports (30 days × 50 warehouses of metering, about a
 * million queries as CSV), ingested by the built command into a fresh SQLite file and a fresh
 * Postgres database, under `/usr/bin/time` for elapsed time and peak RSS. See docs/cost-intelligence.md.
 *
 *   npm run build && npx vite-node bench/dw-ingest.ts                 # 1M queries, both stores
 *   npx vite-node bench/dw-ingest.ts -- --per-hour 3 --stores sqlite   # ~100k queries, SQLite
 *
 * Postgres is `COSTLINE_BENCH_PG_URL` (may CREATE DATABASE) or an embedded server started here.
 */
import { execFileSync, spawnSync } from "node:child_process"
import { closeSync, existsSync, mkdirSync, mkdtempSync, openSync, rmSync, statSync, writeSync } from "node:fs"
import { tmpdir } from "node:os"
import { dirname, join, resolve } from "node:path"
import { fileURLToPath } from "node:url"
import { parseArgs } from "node:util"
import { csvLines, generateExports, METERING_HEADER, QUERY_HEADER } from "../packages/core/src/intelligence/ExportGenerator.js"
import { postgresTarget, sqliteTarget, type StoreTarget } from "./lib/Stores.js"

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..")
const COSTLINE = join(ROOT, "packages/cli/bin/costline.js")

const { values: flags } = parseArgs({
  args: process.argv.slice(2).filter((arg) => arg !== "--"),
  options: {
    days: { type: "string", default: "30" },
    warehouses: { type: "string", default: "50" },
    // 45 control warehouses × 24 hours × 30 days × 30 queries ≈ 972k, plus the planted ones.
    "per-hour": { type: "string", default: "30" },
    stores: { type: "string", default: "sqlite,postgres" },
    // Generate into (and keep) this directory; files already there are reused.
    dir: { type: "string" }
  }
})

const days = Number(flags.days)
const controls = Number(flags.warehouses) - 5
const perHour = Number(flags["per-hour"])

/** Writes the lines in ~1 MB slices: a million rows never sit in memory at once. */
const writeFile = (path: string, lines: Iterable<string>) => {
  const fd = openSync(path, "w")
  let buffer = ""
  let rows = -1
  for (const line of lines) {
    rows++
    buffer += line
    if (buffer.length > 1_000_000) {
      writeSync(fd, buffer)
      buffer = ""
    }
  }
  writeSync(fd, buffer)
  closeSync(fd)
  return rows
}

const keep = flags.dir !== undefined
const dir = flags.dir ?? mkdtempSync(join(tmpdir(), "costline-dw-bench-"))
mkdirSync(dir, { recursive: true })
const metering = join(dir, "metering.csv")
const queries = join(dir, "queries.csv")
const mb = (path: string) => (statSync(path).size / 1e6).toFixed(0)
if (!existsSync(metering) || !existsSync(queries)) {
  const generated = generateExports({ days, controls, controlQueriesPerHour: perHour })
  const started = Date.now()
  const meteringRows = writeFile(metering, csvLines(METERING_HEADER, generated.metering()))
  const queryRows = writeFile(queries, csvLines(QUERY_HEADER, generated.queries()))
  console.log(`generated ${meteringRows} metering rows (${mb(metering)} MB) and ${queryRows} queries (${mb(queries)} MB) in ${((Date.now() - started) / 1000).toFixed(1)} s`)
} else {
  console.log(`reusing ${metering} (${mb(metering)} MB) and ${queries} (${mb(queries)} MB)`)
}

const run = (target: StoreTarget) => {
  execFileSync("node", [COSTLINE, "seed", "--database", target.url], { stdio: "ignore" })
  // CPU seconds (user + system) say more than elapsed time on a shared machine.
  const timed = spawnSync("/usr/bin/time", ["-f", "%e %U %S %M", "node", COSTLINE, "ingest", "dw", "--org", "demo",
    "--metering", metering, "--queries", queries, "--database", target.url], { encoding: "utf8" })
  const lines = timed.stderr.trim().split("\n")
  const [elapsed, user, system, rssKb] = lines.at(-1)!.split(" ").map(Number)
  if (timed.status !== 0) throw new Error(`ingest failed on ${target.kind}: ${timed.stderr}`)
  console.log(`${target.kind}: ${elapsed} s elapsed, ${(user! + system!).toFixed(1)} CPU s (user ${user}, sys ${system}), peak RSS ${(rssKb! / 1024).toFixed(0)} MB`)
  console.log(timed.stdout.trim().split("\n").map((line) => `  ${line}`).join("\n"))
}

try {
  const load = execFileSync("cat", ["/proc/loadavg"], { encoding: "utf8" }).trim()
  console.log(`load average before the runs: ${load}`)
  for (const kind of flags.stores.split(",")) {
    const target = kind === "postgres" ? await postgresTarget() : sqliteTarget()
    try {
      run(target)
    } finally {
      await target.dispose()
    }
  }
} finally {
  if (!keep) rmSync(dir, { recursive: true, force: true })
}
process.exit(0)
