/**
 * A timed scenario: requests that each do seconds of work, sent one at a time, A-B-A-B:
 * costline, baseline, costline, baseline, each request timed; the answers of the first round
 * must be the same. Before, a few cheap requests down the same path warm both servers up, so
 * that costline, which goes first, does not carry its lazy start-up alone; a full request more
 * for warming up would cost many seconds in the full run and change little in a seconds-long one.
 * Throughput is the units of one request over its mean duration. Each server's peak RSS during
 * the timed requests is a row of its own, `<name>_rss_peak`; it counts from the RSS the process
 * has when they begin, so a timed scenario runs before the load scenarios.
 *
 * A scenario with `probeDuring` then sends each server one more request, and meanwhile asks it
 * for that path again and again, one request at a time: `<name>_probe` gives the p50 and p99 of
 * those answers (ms), the figure that shows whether the long request blocks everything else.
 */
import { assertSameAnswer, send } from "./Answer.js"
import { type ResultRow, row } from "./Report.js"
import type { ScenarioContext, TimedScenario } from "./Scenario.js"
import type { ServerPair } from "./Servers.js"

const ROUNDS = 2
const WARM_UP_REQUESTS = 5

/** Nearest-rank percentile: of two samples, p50 is the faster and p99 the slower. */
export const percentile = (samples: ReadonlyArray<number>, p: number): number => {
  const sorted = [...samples].sort((a, b) => a - b)
  return sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)]!
}

const mean = (samples: ReadonlyArray<number>) => samples.reduce((sum, sample) => sum + sample, 0) / samples.length

/** Latencies of `path`, asked one request at a time for as long as `request` runs (at least once). */
export const probeWhile = async (origin: string, path: string, request: Promise<unknown>): Promise<Array<number>> => {
  let running = true
  const done = request.finally(() => {
    running = false
  })
  const latencies: Array<number> = []
  do {
    const started = performance.now()
    const response = await fetch(origin + path)
    await response.arrayBuffer()
    // Only answers given while the request still ran: the last one may have waited for its end.
    if (running || latencies.length === 0) latencies.push(performance.now() - started)
  } while (running)
  await done
  return latencies
}

export const measureTimed = async (
  scenario: TimedScenario,
  context: ScenarioContext,
  servers: ServerPair
): Promise<Array<ResultRow>> => {
  const warmUp = scenario.warmUp(context)
  for (let n = 0; n < WARM_UP_REQUESTS; n++) {
    await send(servers.ours.origin, warmUp)
    await send(servers.baseline.origin, warmUp)
  }
  const request = scenario.request(context)
  const peaks = { ours: servers.ours.watchPeak(), baseline: servers.baseline.watchPeak() }
  const millis = { ours: [] as Array<number>, baseline: [] as Array<number> }
  const cpu = { ours: 0, baseline: 0 }
  for (let round = 0; round < ROUNDS; round++) {
    const answers = { ours: undefined as unknown, baseline: undefined as unknown }
    for (const side of ["ours", "baseline"] as const) {
      const started = performance.now()
      const cpuBefore = servers[side].cpuMicros()
      answers[side] = await send(servers[side].origin, request)
      millis[side].push(performance.now() - started)
      cpu[side] += servers[side].cpuMicros() - cpuBefore
    }
    if (round === 0) assertSameAnswer(scenario.name, answers, scenario.sameAnswer)
  }
  const peakRows = [
    row({
      store: context.store,
      connections: 1,
      name: `${scenario.name}_rss_peak`,
      unit: "MB",
      ours: peaks.ours(),
      baseline: peaks.baseline(),
      p50_ms: null,
      p99_ms: null,
      baseline_p50_ms: null,
      baseline_p99_ms: null
    })
  ]
  const probeRows: Array<ResultRow> = []
  if (scenario.probeDuring !== undefined) {
    const probed = { ours: [] as Array<number>, baseline: [] as Array<number> }
    for (const side of ["ours", "baseline"] as const) {
      probed[side] = await probeWhile(servers[side].origin, scenario.probeDuring, send(servers[side].origin, request))
    }
    probeRows.push(row({
      store: context.store,
      connections: 1,
      name: `${scenario.name}_probe`,
      unit: "ms (p99)",
      ours: percentile(probed.ours, 99),
      baseline: percentile(probed.baseline, 99),
      p50_ms: percentile(probed.ours, 50),
      p99_ms: percentile(probed.ours, 99),
      baseline_p50_ms: percentile(probed.baseline, 50),
      baseline_p99_ms: percentile(probed.baseline, 99)
    }))
  }
  const units = scenario.unitsPerRequest(context)
  const perSecond = (samples: ReadonlyArray<number>) => units / (mean(samples) / 1000)
  return [
    row({
      store: context.store,
      connections: 1,
      name: scenario.name,
      unit: scenario.unit,
      ours: perSecond(millis.ours),
      baseline: perSecond(millis.baseline),
      p50_ms: percentile(millis.ours, 50),
      p99_ms: percentile(millis.ours, 99),
      baseline_p50_ms: percentile(millis.baseline, 50),
      baseline_p99_ms: percentile(millis.baseline, 99),
      ours_cpu_us: cpu.ours / ROUNDS,
      baseline_cpu_us: cpu.baseline / ROUNDS
    }),
    ...peakRows,
    ...probeRows
  ]
}
