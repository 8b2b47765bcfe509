/**
 * costline against bare baselines, on SQLite and on Postgres. See docs/performance.md.
 *
 *   npm run bench                      # full: 1M audit records, 1M usage records, 2.5 s runs at 1/16/64 connections
 *   npm run bench -- --quick           # < 2 min: 100k audit records, 50k usage records, 1 s runs at 1/64 connections
 *   npm run bench -- --stores sqlite   # one store
 *   npm run bench -- --out /tmp/other.json
 *   npm run bench -- --scenarios audit_export,insight_get
 *   npm run bench -- --profile         # costline runs under --cpu-prof: bench/profiles/ (git-ignored)
 *   npm run bench -- --smoke           # seconds: a tiny data set, short runs; checks the harness end to end
 *   npm run bench -- --costline /work/main/packages/cli/bin/costline.js   # measure another build as "ours"
 *
 * Postgres is `COSTLINE_BENCH_PG_URL` (may CREATE DATABASE) or an embedded server started here.
 */
import { mkdirSync } from "node:fs"
import { dirname, join, resolve } from "node:path"
import { fileURLToPath } from "node:url"
import { parseArgs } from "node:util"
import { measure } from "./lib/Measure.js"
import { measureTimed } from "./lib/MeasureTimed.js"
import { type ResultRow, row, table, writeResults } from "./lib/Report.js"
import type { AnyScenario, ScenarioContext } from "./lib/Scenario.js"
import { ORGANIZATION, seed } from "./lib/Seed.js"
import { type RunningServer, startServer } from "./lib/Servers.js"
import { postgresTarget, sqliteTarget, type StoreKind, type StoreTarget } from "./lib/Stores.js"
import { auditExport, auditExportDeep } from "./scenarios/audit.js"
import { insightGet, insightPatch, insightsList, insightsQuery } from "./scenarios/insights.js"
import { usageAttribution } from "./scenarios/usage.js"

const BENCH = dirname(fileURLToPath(import.meta.url))

const { values: flags } = parseArgs({
  args: process.argv.slice(2),
  options: {
    help: { type: "boolean", default: false },
    quick: { type: "boolean", default: false },
    smoke: { type: "boolean", default: false },
    costline: { type: "string" },
    stores: { type: "string", default: "sqlite,postgres" },
    out: { type: "string" },
    profile: { type: "boolean", default: false },
    scenarios: { type: "string" },
    /** Which server takes the peer's column: the Fastify peer, or the Effect floor (`bench/floor/server.mjs`). */
    peer: { type: "string", default: "fastify" }
  }
})


const mode = flags.smoke ? "smoke" : flags.quick ? "quick" : "full"
const settings = {
  full: {
    auditRecords: 1_000_000, insights: 100_000, usageRecords: 1_000_000, seconds: 2.5, connections: [1, 16, 64],
    warmUpBurstSeconds: 1, warmUpSeconds: 30
  },
  quick: {
    auditRecords: 100_000, insights: 20_000, usageRecords: 50_000, seconds: 1, connections: [1, 64],
    warmUpBurstSeconds: 0.5, warmUpSeconds: 15
  },
  smoke: {
    auditRecords: 2_000, insights: 2_000, usageRecords: 2_000, seconds: 0.3, connections: [1, 8],
    warmUpBurstSeconds: 0.3, warmUpSeconds: 1
  }
}[mode]
const outPath = resolve(flags.out ?? join(BENCH, "results", mode === "smoke" ? "smoke.json" : "latest.json"))
const stores = flags.stores.split(",").map((name) => name.trim()) as Array<StoreKind>
// usage_attribution first: its peak RSS must be the attribution's, not what the load scenarios
// leave resident (a process's RSS rarely shrinks once its heap has grown).
const allScenarios: ReadonlyArray<AnyScenario> = [
  usageAttribution,
  auditExport,
  auditExportDeep,
  insightsList,
  insightGet,
  insightPatch,
  insightsQuery
]
function allScenarioNames() {
  return allScenarios.map((scenario) => scenario.name).join(", ")
}
if (flags.help) {
  console.log(`npm run bench -- [options]   (see docs/performance.md)
  --quick                 100k audit records, 1 s runs at 1 and 64 connections (< 3 min on a quiet machine)
  --smoke                 a tiny data set and short runs: checks the harness end to end (figures are not meant to be read)
  --stores sqlite,postgres
  --scenarios a,b         ${allScenarioNames()}
  --out <file.json>       default bench/results/latest.json (smoke: bench/results/smoke.json)
  --profile               costline under --cpu-prof, profiles in bench/profiles/
  --costline <bin>        another costline build as "ours" (an A/B against a checkout of main)
  --peer fastify|floor    the peer column: the Fastify peer (default), or the Effect floor (the baseline's
                          work as one Effect fiber per request: what any Effect server pays at least)
Every row reports requests per second and, from each server process's own CPU time (/proc), CPU µs per request.`)
  process.exit(0)
}
const selectScenarios = (names: string | undefined): ReadonlyArray<AnyScenario> => {
  if (names === undefined) return allScenarios
  const wanted = names.split(",").map((name) => name.trim()).filter((name) => name !== "")
  const unknown = wanted.filter((name) => !allScenarios.some((scenario) => scenario.name === name))
  if (unknown.length > 0) {
    throw new Error(`unknown scenario(s) ${unknown.join(", ")}; known: ${allScenarios.map((s) => s.name).join(", ")}`)
  }
  return allScenarios.filter((scenario) => wanted.includes(scenario.name))
}
const scenarios = selectScenarios(flags.scenarios)
if (flags.peer !== "fastify" && flags.peer !== "floor") throw new Error(`--peer fastify or floor, not ${flags.peer}`)
const peerKind = flags.peer === "floor" ? "floor" : "peer"
// A million usage records take a while to seed: only when they are measured.
const sizes = { ...settings, usageRecords: scenarios.includes(usageAttribution) ? settings.usageRecords : 0 }

const log = (message: string) => process.stderr.write(`[bench ${new Date().toISOString().slice(11, 19)}] ${message}\n`)

/** Figures of the processes themselves: cold start, memory at idle and its peak under load. */
const processRows = (
  store: StoreKind,
  servers: { ours: RunningServer; baseline: RunningServer; peer: RunningServer | undefined },
  idle: { ours: number; baseline: number; peer: number | undefined }
): Array<ResultRow> => {
  const figure = (name: string, unit: string, ours: number, baseline: number, connections: number | null, peer?: number) =>
    row({
      name, store, connections, unit, ours, baseline, p50_ms: null, p99_ms: null, baseline_p50_ms: null, baseline_p99_ms: null,
      peer: peer ?? null
    })
  const peer = servers.peer
  const loads = scenarios.flatMap((s) => (s.kind === "timed" ? [1] : s.connections ?? settings.connections))
  // The peak is the process's high-water mark, reached under the heaviest load of the run.
  const peak = loads.length === 0 ? null : Math.max(...loads)
  return [
    figure("cold_start", "ms", servers.ours.coldStartMs, servers.baseline.coldStartMs, null, peer?.coldStartMs),
    figure("rss_idle", "MB", idle.ours, idle.baseline, null, idle.peer),
    figure("rss_peak", "MB", servers.ours.memory().peakRssMb, servers.baseline.memory().peakRssMb, peak, peer?.memory().peakRssMb)
  ]
}

/** The peer serves only the insight routes: it is ready at its first insight page. */
const peerProbe = (headers: Record<string, string>) => ({ path: "/v2/insights?max_results=1", headers })

/** What a scenario that could not be measured left: the run goes on with the next one and exits 1 at the end. */
const failures: Array<{ readonly store: StoreKind; readonly scenario: string; readonly reason: string }> = []

/** The rows measured so far (of earlier stores too), written after every scenario: a run cut short keeps them. */
const measured: Array<ResultRow> = []
const notes = () => ({
  mode,
  peer: flags.peer,
  ...(flags.costline === undefined ? {} : { costline: resolve(flags.costline) }),
  audit_records: sizes.auditRecords,
  usage_records: sizes.usageRecords,
  ...(failures.length === 0 ? {} : { failures })
})

const benchStore = async (target: StoreTarget): Promise<Array<ResultRow>> => {
  log(`${target.kind}: seeding ${sizes.auditRecords} audit records, ${sizes.insights} insights, ${sizes.usageRecords} usage records`)
  const seedStarted = performance.now()
  const seeded = await seed(target, sizes)
  log(`${target.kind}: seeded in ${((performance.now() - seedStarted) / 1000).toFixed(1)} s`)
  const headers = { authorization: `Bearer ${seeded.token}`, "x-tenant-id": ORGANIZATION }
  const probe = { path: "/v2/audit-logs?max_results=1", headers }
  const profileDir = join(BENCH, "profiles")
  if (flags.profile) mkdirSync(profileDir, { recursive: true })
  const ours = await startServer("ours", {
    databaseUrl: target.url,
    costline: flags.costline === undefined ? undefined : resolve(flags.costline),
    probe,
    ...(flags.profile ? { nodeFlags: ["--cpu-prof", `--cpu-prof-dir=${profileDir}`, `--cpu-prof-name=${target.kind}.cpuprofile`] } : {})
  })
  const baseline = await startServer("baseline", { databaseUrl: target.url, probe })
  const wantsPeer = scenarios.some((scenario) => scenario.kind !== "timed" && scenario.peer === true)
  const peer = wantsPeer ? await startServer(peerKind, { databaseUrl: target.url, probe: peerProbe(headers) }) : undefined
  try {
    const idle = { ours: ours.memory().rssMb, baseline: baseline.memory().rssMb, peer: peer?.memory().rssMb }
    const context: ScenarioContext = { store: target.kind, seeded, headers }
    const rows: Array<ResultRow> = []
    for (const scenario of scenarios) {
      log(`${target.kind}: ${scenario.name}`)
      try {
        rows.push(
          ...scenario.kind === "timed"
            ? await measureTimed(scenario, context, { ours, baseline })
            : await measure(scenario, context, { ours, baseline, peer }, settings)
        )
      } catch (error) {
        // One broken scenario (e.g. a server refusing requests under a load it cannot carry)
        // must not cost the others' figures: it is reported, and the run fails at the end.
        const reason = error instanceof Error ? error.message : String(error)
        failures.push({ store: target.kind, scenario: scenario.name, reason })
        log(`${target.kind}: ${scenario.name} not measured: ${reason}`)
      }
      writeResults(outPath, [...measured, ...rows], { ...notes(), partial: true })
    }
    return [...rows, ...processRows(target.kind, { ours, baseline, peer }, idle)]
  } finally {
    await ours.stop()
    await baseline.stop()
    await peer?.stop()
  }
}

const main = async () => {
  for (const store of stores) {
    const target = store === "sqlite" ? sqliteTarget() : await postgresTarget()
    try {
      measured.push(...await benchStore(target))
    } finally {
      await target.dispose()
    }
  }
  console.log(table(measured))
  writeResults(outPath, measured, notes())
  log(`results written to ${outPath}`)
  for (const failure of failures) log(`not measured: ${failure.store} ${failure.scenario}: ${failure.reason}`)
  if (failures.length > 0) process.exitCode = 1
}

await main()
