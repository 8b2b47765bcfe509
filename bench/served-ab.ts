/**
 * CPU per request of real servers, A/B, paired in time: two or more `costline serve` processes
 * over one seeded store (each its own build and environment), driven in turn by short load bursts
 * (A, B, A, B, …), each process's CPU time read from /proc over its own bursts. What `bench/cpu.ts
 * --paired` does in process, for what only a served process has: sockets, the launcher's heap
 * flags, the access log's writes to a pipe, the server's own listeners. On a machine other jobs
 * load, alternating bursts puts the load on every side alike.
 *
 *   npx vite-node bench/served-ab.ts -- --scenarios insight_get --side '{}' --side '{"env":{"NODE_OPTIONS":"--max-semi-space-size=16"}}'
 *   npx vite-node bench/served-ab.ts -- --side '{"costline":"/work/base/packages/cli/bin/costline.js"}' --side '{}'
 *
 * A side is JSON: `costline` (a build's `bin/costline.js`, or any server taking `serve --database
 * <url> --port <n>`, such as `bench/floor/runtime-steps.mjs`; relative to the working directory;
 * default this checkout's) and `env`.
 */
import { resolve } from "node:path"
import { parseArgs } from "node:util"
import { drive } from "./lib/Load.js"
import { untilIdle } from "./lib/Cpu.js"
import { ORGANIZATION, seed } from "./lib/Seed.js"
import { type RunningServer, startServer } from "./lib/Servers.js"
import { parseSides, scenarioNamed, SIDE_OPTIONS } from "./lib/Sides.js"
import { postgresTarget, sqliteTarget } from "./lib/Stores.js"

const { values: flags } = parseArgs({
  args: process.argv.slice(2),
  options: {
    ...SIDE_OPTIONS,
    connections: { type: "string", default: "16" },
    /** Bursts per side; the figure is the median of its bursts. */
    bursts: { type: "string", default: "15" },
    "burst-seconds": { type: "string", default: "2" },
    "warm-up-seconds": { type: "string", default: "20" }
  }
})

const sides = parseSides(flags.side, ["{}", "{}"])
const connections = Number(flags.connections)
const burstSeconds = Number(flags["burst-seconds"])
const log = (message: string) => process.stderr.write(`[served-ab ${new Date().toISOString().slice(11, 19)}] ${message}\n`)
const median = (values: ReadonlyArray<number>) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)]!
}

const target = flags.store === "postgres" ? await postgresTarget() : sqliteTarget()
const seeded = await seed(target, { auditRecords: 20_000, insights: 5_000, usageRecords: 0 })
const headers = { authorization: `Bearer ${seeded.token}`, "x-tenant-id": ORGANIZATION }
const probe = { path: "/v2/audit-logs?max_results=1", headers }
const servers: Array<RunningServer> = []
try {
  for (const side of sides) {
    servers.push(await startServer("ours", { databaseUrl: target.url, probe, costline: side.costline === undefined ? undefined : resolve(side.costline), env: side.env }))
  }
  for (const name of flags.scenarios.split(",")) {
    const scenario = scenarioNamed(name)
    const context = { store: target.kind, seeded, headers }
    const burst = async (server: RunningServer) => {
      const before = server.cpuMicros()
      const result = await drive(server.origin, { connections, seconds: burstSeconds, request: scenario.requests(context) })
      const cpu = server.cpuMicros() - before
      await untilIdle(server)
      return { cpuPerRequest: cpu / Math.max(1, result.requests), requestsPerSecond: result.requestsPerSecond }
    }
    const warmUntil = performance.now() + Number(flags["warm-up-seconds"]) * 1000
    while (performance.now() < warmUntil) for (const server of servers) await burst(server)
    const runs: Array<Array<{ cpuPerRequest: number; requestsPerSecond: number }>> = servers.map(() => [])
    for (let round = 0; round < Number(flags.bursts); round++) {
      // The order turns each round, so no side always follows the same one.
      for (let i = 0; i < servers.length; i++) {
        const index = (i + round) % servers.length
        runs[index]!.push(await burst(servers[index]!))
      }
    }
    const medians = runs.map((side) => median(side.map((run) => run.cpuPerRequest)))
    const result = {
      scenario: name,
      store: target.kind,
      connections,
      sides,
      cpu_us: runs.map((side) => side.map((run) => Math.round(run.cpuPerRequest))),
      median_cpu_us: medians.map(Math.round),
      median_ratio_to_first: medians.map((value) => Number((value / medians[0]!).toFixed(3))),
      median_rps: runs.map((side) => Math.round(median(side.map((run) => run.requestsPerSecond)))),
      /** Each process's peak resident memory so far (MB), this scenario's load included. */
      peak_rss_mb: servers.map((server) => Number(server.memory().peakRssMb.toFixed(1)))
    }
    log(JSON.stringify(result))
    console.log(JSON.stringify(result))
  }
} finally {
  for (const server of servers) await server.stop()
  // The seeded file, or the embedded Postgres (left running, it also kept this process alive).
  await target.dispose()
}
