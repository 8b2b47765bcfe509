/**
 * A scenario measured in rounds: costline, baseline (and the peer where it serves the scenario),
 * then again, at each connection count, so that whatever else the machine does in the meantime
 * weighs on all alike. Each figure is the mean of a server's runs. Before measuring, each server
 * is driven until its CPU per request is steady (the JIT of a large program takes seconds of load
 * to settle); CPU per request is each server process's own CPU time over its runs, divided by the
 * requests it answered. Every run starts on an idle server: after each, the requests it left in
 * flight are let finish first.
 */
import { isDeepStrictEqual } from "node:util"
import { assertSameAnswer, send } from "./Answer.js"
import { isSteady, MIN_MEASURED_CPU_MICROS, untilIdle } from "./Cpu.js"
import { drive, type LoadResult, type Request } from "./Load.js"
import { type ResultRow, row } from "./Report.js"
import type { Scenario, ScenarioContext } from "./Scenario.js"
import type { RunningServer, ServerPair } from "./Servers.js"

export interface MeasureOptions {
  readonly connections: ReadonlyArray<number>
  readonly seconds: number
  /** Warm-up: bursts of this length until CPU per request is steady, for at most `warmUpSeconds`. */
  readonly warmUpBurstSeconds: number
  readonly warmUpSeconds: number
}

const ROUNDS = 2

type Side = "ours" | "baseline" | "peer"
type Requests = Record<Side, () => Request>

interface Run extends LoadResult {
  readonly cpuMicrosPerRequest: number
}

const log = (message: string) => process.stderr.write(`[bench ${new Date().toISOString().slice(11, 19)}]   ${message}\n`)

/**
 * One load run, with the server's CPU time over it; then the requests the run left in flight are
 * let finish (see `untilIdle`), so that every run starts on an idle server. Their CPU time is
 * not counted: they were not answered inside the run.
 */
const measuredRun = async (server: RunningServer, plan: Parameters<typeof drive>[1]): Promise<Run> => {
  const before = server.cpuMicros()
  const result = await drive(server.origin, plan)
  const cpu = server.cpuMicros() - before
  const drainedMs = await untilIdle(server)
  if (drainedMs > 2_000) log(`${server.kind} finished the requests left in flight ${(drainedMs / 1000).toFixed(1)} s after the run`)
  return { ...result, cpuMicrosPerRequest: cpu / Math.max(1, result.requests) }
}

/** Bursts at the scenario's highest connection count until CPU per request stops moving. */
const warmUp = async (server: RunningServer, request: () => Request, connections: number, options: MeasureOptions) => {
  const samples: Array<number> = []
  const deadline = performance.now() + options.warmUpSeconds * 1000
  // Bursts are pooled until they span enough clock ticks of CPU to say something.
  let pooled = { cpu: 0, requests: 0 }
  while (!isSteady(samples) && performance.now() < deadline) {
    const run = await measuredRun(server, { connections, seconds: options.warmUpBurstSeconds, request })
    pooled = { cpu: pooled.cpu + run.cpuMicrosPerRequest * run.requests, requests: pooled.requests + run.requests }
    if (pooled.cpu >= MIN_MEASURED_CPU_MICROS) {
      samples.push(pooled.cpu / pooled.requests)
      pooled = { cpu: 0, requests: 0 }
    }
  }
  log(`${server.kind} warm: ${samples.map((value) => Math.round(value)).join(" → ")} µs/request${isSteady(samples) ? "" : " (not steady by the deadline)"}`)
}

const mean = (results: ReadonlyArray<Run>, pick: (result: Run) => number) =>
  results.reduce((sum, result) => sum + pick(result), 0) / results.length

export const measure = async (
  scenario: Scenario,
  context: ScenarioContext,
  servers: ServerPair,
  options: MeasureOptions
): Promise<Array<ResultRow>> => {
  const sides: ReadonlyArray<Side> = scenario.peer === true && servers.peer !== undefined
    ? ["ours", "baseline", "peer"]
    : ["ours", "baseline"]
  const serverOf = (side: Side) => servers[side]!
  const requests: Requests = {
    ours: scenario.requests(context),
    baseline: scenario.requests(context),
    peer: scenario.requests(context)
  }
  // Every server's first answer must be the baseline's (same records, same page token).
  const baselineAnswer = await send(servers.baseline.origin, requests.baseline())
  for (const side of sides.filter((side) => side !== "baseline")) {
    const answer = await send(serverOf(side).origin, requests[side]())
    if (scenario.sameAnswer !== false) {
      assertSameAnswer(`${scenario.name} (${side})`, { ours: answer, baseline: baselineAnswer }, isDeepStrictEqual)
    }
  }
  const connectionCounts = scenario.connections ?? options.connections
  // The RSS high-water mark during this scenario (from the RSS it starts at: a process's RSS
  // rarely shrinks, so a scenario's peak is never below the one before's resident set).
  const peaks = Object.fromEntries(sides.map((side) => [side, serverOf(side).watchPeak()])) as Partial<Record<Side, () => number>>
  for (const side of sides) await warmUp(serverOf(side), requests[side], Math.max(...connectionCounts), options)
  const rows: Array<ResultRow> = []
  for (const connections of connectionCounts) {
    const runs: Record<Side, Array<Run>> = { ours: [], baseline: [], peer: [] }
    for (let round = 0; round < ROUNDS; round++) {
      for (const side of sides) {
        runs[side].push(await measuredRun(serverOf(side), { connections, seconds: options.seconds, request: requests[side] }))
      }
    }
    const hasPeer = runs.peer.length > 0
    rows.push(row({
      name: scenario.name,
      store: context.store,
      connections,
      unit: scenario.unit,
      ours: mean(runs.ours, (r) => r.requestsPerSecond) * scenario.unitsPerRequest,
      baseline: mean(runs.baseline, (r) => r.requestsPerSecond) * scenario.unitsPerRequest,
      p50_ms: mean(runs.ours, (r) => r.p50Ms),
      p99_ms: mean(runs.ours, (r) => r.p99Ms),
      baseline_p50_ms: mean(runs.baseline, (r) => r.p50Ms),
      baseline_p99_ms: mean(runs.baseline, (r) => r.p99Ms),
      ours_cpu_us: mean(runs.ours, (r) => r.cpuMicrosPerRequest),
      baseline_cpu_us: mean(runs.baseline, (r) => r.cpuMicrosPerRequest),
      peer: hasPeer ? mean(runs.peer, (r) => r.requestsPerSecond) * scenario.unitsPerRequest : null,
      peer_cpu_us: hasPeer ? mean(runs.peer, (r) => r.cpuMicrosPerRequest) : null,
      peer_p99_ms: hasPeer ? mean(runs.peer, (r) => r.p99Ms) : null
    }))
  }
  rows.push(row({
    name: `${scenario.name}_rss_peak`,
    store: context.store,
    connections: Math.max(...connectionCounts),
    unit: "MB",
    ours: peaks.ours!(),
    baseline: peaks.baseline!(),
    p50_ms: null,
    p99_ms: null,
    baseline_p50_ms: null,
    baseline_p99_ms: null,
    peer: peaks.peer?.() ?? null
  }))
  return rows
}
