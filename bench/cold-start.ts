/**
 * Cold start and memory of `costline serve` against the bare baseline, repeated: each round
 * spawns each server on the same seeded SQLite file and times spawn → first `200` of
 * `GET /v2/insights/{id}` with the admin key (the bench's `cold_start` figure, on an insight read),
 * then reads its resident memory and the CPU time it used so far (user + system: on a loaded
 * machine the steadier figure). Rounds alternate costline and baseline; the report gives every
 * figure and the median. `--node` runs the servers on another node binary (e.g. the machine's);
 * `--costline <bin>` given more than once measures those builds in turn within each round (an A/B).
 *
 *   npx vite-node bench/cold-start.ts -- --rounds 5
 *   npx vite-node bench/cold-start.ts -- --rounds 5 --no-compile-cache   # NODE_DISABLE_COMPILE_CACHE=1
 *   npx vite-node bench/cold-start.ts -- --rounds 1 --cpu-prof /tmp/prof  # a V8 CPU profile of one start
 *   npx vite-node bench/cold-start.ts -- --rounds 5 --store postgres       # on Postgres (COSTLINE_BENCH_PG_URL or embedded)
 */
import { mkdirSync, mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join, resolve } from "node:path"
import { parseArgs } from "node:util"
import { ORGANIZATION, seed } from "./lib/Seed.js"
import { startServer } from "./lib/Servers.js"
import { postgresTarget, sqliteTarget } from "./lib/Stores.js"

const { values: flags } = parseArgs({
  args: process.argv.slice(2),
  options: {
    rounds: { type: "string", default: "5" },
    node: { type: "string" },
    costline: { type: "string", multiple: true },
    "no-compile-cache": { type: "boolean", default: false },
    "cpu-prof": { type: "string" },
    insights: { type: "string", default: "2000" },
    store: { type: "string", default: "sqlite" }
  }
})

const median = (values: ReadonlyArray<number>) => {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2
}

if (flags.store !== "sqlite" && flags.store !== "postgres") throw new Error(`--store: sqlite or postgres, not ${flags.store}`)
const target = flags.store === "sqlite" ? sqliteTarget() : await postgresTarget()
// One working directory for every start, as a restarted server has: costline keeps its development
// secret key there, and a database whose secrets one key sealed refuses another.
const cwd = mkdtempSync(join(tmpdir(), "costline-cold-start-"))
try {
  const seeded = await seed(target, { auditRecords: 2_000, insights: Number(flags.insights), usageRecords: 0 })
  const headers = { authorization: `Bearer ${seeded.token}`, "x-tenant-id": ORGANIZATION }
  const probe = { path: `/v2/insights/${seeded.insightIds[0]}`, headers }
  const profileDir = flags["cpu-prof"] === undefined ? undefined : resolve(flags["cpu-prof"])
  if (profileDir !== undefined) mkdirSync(profileDir, { recursive: true })
  const builds = flags.costline === undefined ? [undefined] : flags.costline.map((bin) => resolve(bin))
  const runs = [...builds.map((build) => ({ kind: "ours" as const, build })), { kind: "baseline" as const, build: undefined }]
  const label = (run: (typeof runs)[number]) => run.kind === "baseline" ? "baseline" : run.build ?? "ours"
  const figures = new Map(runs.map((run) => [label(run), { ms: [] as Array<number>, cpu: [] as Array<number>, rss: [] as Array<number> }]))
  for (let round = 0; round < Number(flags.rounds); round++) {
    for (const run of runs) {
      const kind = run.kind
      const server = await startServer(kind, {
        databaseUrl: target.url,
        probe,
        cwd,
        node: flags.node,
        costline: run.build,
        ...(flags["no-compile-cache"] ? { env: { NODE_DISABLE_COMPILE_CACHE: "1" } } : {}),
        ...(profileDir !== undefined && kind === "ours"
          ? { nodeFlags: ["--cpu-prof", `--cpu-prof-dir=${profileDir}`, `--cpu-prof-name=cold-start-${round}.cpuprofile`] }
          : {})
      })
      const figure = figures.get(label(run))!
      figure.ms.push(server.coldStartMs)
      figure.cpu.push(server.cpuMicros() / 1000)
      figure.rss.push(server.memory().rssMb)
      await server.stop()
    }
  }
  const show = (values: ReadonlyArray<number>) => values.map((value) => value.toFixed(0)).join(", ")
  for (const [name, figure] of figures) {
    console.log(`${name}\n  cold start ms: median ${median(figure.ms).toFixed(0)} (${show(figure.ms)})\n  CPU ms: median ${median(figure.cpu).toFixed(0)} (${show(figure.cpu)})\n  RSS at first answer MB: median ${median(figure.rss).toFixed(0)} (${show(figure.rss)})`)
  }
} finally {
  rmSync(cwd, { recursive: true, force: true })
  await target.dispose()
}
