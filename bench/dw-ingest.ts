/**
 * Scale of `costline ingest dw`: generated exports (30 days × 50 warehouses of metering, about a
 * million queries as CSV), ingested by the built command into a fresh SQLite file and a fresh
 * Postgres database, under `/usr/bin/time` for elapsed time and peak RSS. See docs/cost-intelligence.md.
 *
 *   npm run build && npx vite-node bench/dw-ingest.ts                 # 1M queries, both stores
 *   npx vite-node bench/dw-ingest.ts -- --per-hour 3 --stores sqlite   # ~100k queries, SQLite
 *
 * Postgres is `COSTLINE_BENCH_PG_URL` (may CREATE DATABASE) or an embedded server started here;
 * for the embedded one the run also reports the server's CPU seconds (its process tree, from
 * /proc), split at the moment the server starts working (the end of the validation pass, which
 * writes nothing), and with `--profile` the statements' times from `pg_stat_statements`.
 */
import { execFileSync, spawn } from "node:child_process"
import { closeSync, existsSync, mkdirSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync, statSync, writeSync } from "node:fs"
import { tmpdir } from "node:os"
import { dirname, join, resolve } from "node:path"
import { fileURLToPath } from "node:url"
import { parseArgs } from "node:util"
import { csvLines, generateExports, METERING_HEADER, QUERY_HEADER } from "../packages/core/src/intelligence/ExportGenerator.js"
import { loadAverage, treeCpuSeconds } from "./lib/ProcCpu.js"
import { onServer, postgresTarget, sqliteTarget, type StoreTarget } from "./lib/Stores.js"

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..")
const DEFAULT_COSTLINE = join(ROOT, "packages/cli/bin/costline.js")

const { values: flags } = parseArgs({
  args: process.argv.slice(2).filter((arg) => arg !== "--"),
  options: {
    days: { type: "string", default: "30" },
    warehouses: { type: "string", default: "50" },
    // 45 control warehouses × 24 hours × 30 days × 30 queries ≈ 972k, plus the planted ones.
    "per-hour": { type: "string", default: "30" },
    stores: { type: "string", default: "sqlite,postgres" },
    // Generate into (and keep) this directory; files already there are reused.
    dir: { type: "string" },
    // Embedded Postgres only: load pg_stat_statements and print the statements' times.
    profile: { type: "boolean", default: false },
    // Another build's bin/costline.js (e.g. the one before a change), beside a dist/costline.mjs.
    costline: { type: "string" },
    help: { type: "boolean", default: false }
  }
})

if (flags.help) {
  console.log(`npx vite-node bench/dw-ingest.ts -- [--stores sqlite,postgres] [--dir DIR] [--per-hour 30] [--days 30]
  [--warehouses 50] [--profile] [--costline path/to/bin/costline.js]
--per-hour 3 gives about 100k queries; --profile (embedded Postgres) prints pg_stat_statements' top statements.`)
  process.exit(0)
}

const COSTLINE = flags.costline === undefined ? DEFAULT_COSTLINE : resolve(flags.costline)
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

/** CPU seconds of the `costline` process (the child of /usr/bin/time). */
const childCpu = (timePid: number): number => {
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue
    try {
      const text = readFileSync(`/proc/${entry}/stat`, "utf8")
      const fields = text.slice(text.lastIndexOf(")") + 2).split(" ")
      if (Number(fields[1]) === timePid) return treeCpuSeconds(Number(entry))
    } catch {
      // gone meanwhile
    }
  }
  return Number.NaN
}

const PROFILE_SQL = `
  SELECT calls, rows, round(total_exec_time::numeric / 1000, 2) AS seconds,
    regexp_replace(left(query, 110), '\\s+', ' ', 'g') AS query
  FROM pg_stat_statements WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database())
  ORDER BY total_exec_time DESC LIMIT 15`

const run = async (target: StoreTarget) => {
  execFileSync("node", [COSTLINE, "seed", "--database", target.url], { stdio: "ignore" })
  if (flags.profile && target.kind === "postgres") {
    await onServer(target.url, "CREATE EXTENSION IF NOT EXISTS pg_stat_statements")
    await onServer(target.url, "SELECT pg_stat_statements_reset()")
  }
  const serverCpu = target.serverCpuSeconds
  const serverBefore = serverCpu?.() ?? Number.NaN
  const loadBefore = loadAverage()
  const started = Date.now()
  // CPU seconds (user + system) say more than elapsed time on a shared machine.
  const child = spawn("/usr/bin/time", ["-f", "%e %U %S %M", "node", COSTLINE, "ingest", "dw", "--org", "demo",
    "--metering", metering, "--queries", queries, "--database", target.url], { stdio: ["ignore", "pipe", "pipe"] })
  let stdout = ""
  let stderr = ""
  child.stdout.on("data", (chunk) => (stdout += chunk))
  child.stderr.on("data", (chunk) => (stderr += chunk))
  // Until the server starts working, the command is validating (that pass writes nothing).
  let writeStart: { at: number; costline: number; server: number } | undefined
  const sampler = setInterval(() => {
    if (writeStart !== undefined || serverCpu === undefined) return
    const server = serverCpu()
    if (server - serverBefore > 0.3) writeStart = { at: Date.now(), costline: childCpu(child.pid!), server }
  }, 250)
  const status = await new Promise<number | null>((resolve) => child.on("close", resolve))
  clearInterval(sampler)
  const serverAfter = serverCpu?.() ?? Number.NaN
  const lines = stderr.trim().split("\n")
  const [elapsed, user, system, rssKb] = lines.at(-1)!.split(" ").map(Number)
  if (status !== 0) throw new Error(`ingest failed on ${target.kind}: ${stderr}`)
  const costline = user! + system!
  console.log(`${target.kind}: ${elapsed} s elapsed (load average ${loadBefore} → ${loadAverage()}), ${costline.toFixed(1)} CPU s of costline (user ${user}, sys ${system}), peak RSS ${(rssKb! / 1024).toFixed(0)} MB`)
  if (serverCpu !== undefined) {
    console.log(`  server: ${(serverAfter - serverBefore).toFixed(1)} CPU s; costline + server ${(costline + serverAfter - serverBefore).toFixed(1)} CPU s`)
    if (writeStart !== undefined) {
      const validation = (writeStart.at - started) / 1000
      console.log(`  validation pass: ${validation.toFixed(1)} s, ${writeStart.costline.toFixed(1)} CPU s of costline; ` +
        `the rest (write, publish, purge): ${(elapsed! - validation).toFixed(1)} s, ${(costline - writeStart.costline).toFixed(1)} CPU s of costline, ` +
        `${(serverAfter - writeStart.server).toFixed(1)} of the server`)
    }
  }
  console.log(stdout.trim().split("\n").map((line) => `  ${line}`).join("\n"))
  if (flags.profile && target.kind === "postgres") {
    for (const row of await onServer(target.url, PROFILE_SQL)) {
      console.log(`  ${String(row["seconds"]).padStart(8)} s ${String(row["calls"]).padStart(7)} calls ${String(row["rows"]).padStart(9)} rows  ${String(row["query"])}`)
    }
  }
}

try {
  for (const kind of flags.stores.split(",")) {
    const target = kind === "postgres"
      ? await postgresTarget(flags.profile ? { settings: { shared_preload_libraries: "pg_stat_statements", "pg_stat_statements.track": "all" } } : {})
      : sqliteTarget()
    try {
      await run(target)
    } finally {
      await target.dispose()
    }
  }
} finally {
  if (!keep) rmSync(dir, { recursive: true, force: true })
}
process.exit(0)
