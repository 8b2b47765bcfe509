/**
 * Where a served process's CPU goes, kernel included: `perf record` of each side's server under
 * load, reported by what the CPU was doing (`lib/PerfReport.ts`: JavaScript, V8's builtins and
 * runtime, the collector on the main thread and on V8's worker threads, the SQLite addon, libc,
 * the kernel, node and libuv) and by symbol. A V8 CPU profile (`--cpu-prof`) sees only the main
 * thread's JavaScript and charges a preempted process's time to whatever it was running; the
 * kernel's side of a request (the socket reads and writes, waking the client) and the
 * collector's worker threads are invisible to it. JavaScript frames are named through V8's perf
 * map (`--perf-basic-prof`, added to the side's `NODE_OPTIONS`).
 *
 *   npx vite-node bench/perf-served.ts -- --scenarios insights_list --connections 64 \
 *     --side '{}' --side '{"costline":"bench/baseline/server.mjs"}' --out /tmp/perf-served
 *
 * Each side is warmed, then recorded over one load run of `--seconds`; each category's share of
 * its samples is also given in µs per request, from its CPU per request (/proc) over the same
 * run. Needs `perf` and `kernel.perf_event_paranoid` ≤ 2 (a process of one's own).
 */
import { spawn, spawnSync } from "node:child_process"
import { mkdirSync } from "node:fs"
import { join, resolve } from "node:path"
import { parseArgs } from "node:util"
import { drive } from "./lib/Load.js"
import { untilIdle } from "./lib/Cpu.js"
import { byCategory, categoryOf, parseRows } from "./lib/PerfReport.js"
import { ORGANIZATION, seed } from "./lib/Seed.js"
import { startServer } from "./lib/Servers.js"
import { parseSides, scenarioNamed, SIDE_OPTIONS } from "./lib/Sides.js"
import { postgresTarget, sqliteTarget } from "./lib/Stores.js"

const { values: flags } = parseArgs({
  args: process.argv.slice(2),
  options: {
    ...SIDE_OPTIONS,
    connections: { type: "string", default: "64" },
    seconds: { type: "string", default: "8" },
    "warm-up-seconds": { type: "string", default: "20" },
    /** Sampling frequency (Hz). */
    frequency: { type: "string", default: "1999" },
    /** Where the recordings and reports go. */
    out: { type: "string", default: "/tmp/perf-served" },
    /** Symbols listed per side. */
    symbols: { type: "string", default: "40" },
    /**
     * Record call chains too (`perf record -g`), for `perf report --children -i <recording>`:
     * time per JavaScript function with its callees (V8 keeps frame pointers in JIT code).
     */
    "call-graph": { type: "boolean", default: false }
  }
})

const log = (message: string) => process.stderr.write(`[perf-served ${new Date().toISOString().slice(11, 19)}] ${message}\n`)
const out = resolve(flags.out)
mkdirSync(out, { recursive: true })
const sides = parseSides(flags.side, ["{}"])
const connections = Number(flags.connections)
const target = flags.store === "postgres" ? await postgresTarget() : sqliteTarget()
const seeded = await seed(target, { auditRecords: 20_000, insights: 5_000, usageRecords: 0 })
const headers = { authorization: `Bearer ${seeded.token}`, "x-tenant-id": ORGANIZATION }
const probe = { path: "/v2/audit-logs?max_results=1", headers }

/** `perf report` of one recording: self time by thread, shared object and symbol, every row. */
const report = (file: string): string => {
  const run = spawnSync("perf", ["report", "-i", file, "--stdio", "--no-children", "--sort", "comm,dso,sym", "--percent-limit", "0"], {
    encoding: "utf8",
    maxBuffer: 256 * 1024 * 1024
  })
  if (run.status !== 0) throw new Error(`perf report failed: ${run.stderr}`)
  return run.stdout
}

try {
  for (const name of flags.scenarios.split(",")) {
    const scenario = scenarioNamed(name)
    const context = { store: target.kind, seeded, headers }
    for (const [index, side] of sides.entries()) {
      const server = await startServer("ours", {
        databaseUrl: target.url,
        probe,
        costline: side.costline === undefined ? undefined : resolve(side.costline),
        env: { ...side.env, NODE_OPTIONS: `${side.env?.NODE_OPTIONS ?? ""} --perf-basic-prof`.trim() }
      })
      try {
        const warmUntil = performance.now() + Number(flags["warm-up-seconds"]) * 1000
        while (performance.now() < warmUntil) {
          await drive(server.origin, { connections, seconds: 2, request: scenario.requests(context) })
          await untilIdle(server)
        }
        const file = join(out, `${name}-${index}.data`)
        const perf = spawn("perf", ["record", ...(flags["call-graph"] ? ["-g"] : []), "-F", flags.frequency, "-p", String(server.pid), "-o", file], { stdio: "ignore" })
        const before = server.cpuMicros()
        const result = await drive(server.origin, { connections, seconds: Number(flags.seconds), request: scenario.requests(context) })
        const cpu = server.cpuMicros() - before
        perf.kill("SIGINT")
        await new Promise((done) => perf.once("exit", done))
        const summary = {
          scenario: name,
          side,
          requests: result.requests,
          cpu_us_per_request: Math.round(cpu / Math.max(1, result.requests)),
          requests_per_second: Math.round(result.requestsPerSecond)
        }
        log(JSON.stringify(summary))
        console.log(`\n## ${name}, side ${index} ${JSON.stringify(side)}: ${summary.cpu_us_per_request} µs/request, ${summary.requests_per_second} requests/s`)
        const rows = parseRows(report(file))
        const perRequest = (percent: number) => Math.round((percent / 100) * summary.cpu_us_per_request)
        console.log("\nby what the CPU was doing (self; µs per request from the /proc figure):")
        for (const [category, percent] of byCategory(rows)) {
          console.log(`  ${percent.toFixed(1).padStart(5)}%  ${String(perRequest(percent)).padStart(5)} µs  ${category}`)
        }
        console.log("\nby symbol (self):")
        for (const row of rows.slice(0, Number(flags.symbols))) {
          console.log(`  ${row.percent.toFixed(2).padStart(5)}%  ${categoryOf(row).padEnd(40)} ${row.thread.padEnd(10)} ${row.symbol.slice(0, 120)}`)
        }
      } finally {
        await server.stop()
      }
    }
  }
} finally {
  await target.dispose()
}
