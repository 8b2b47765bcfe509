/**
 * A scenario measured A-B-A-B: costline, baseline, costline, baseline at each connection count,
 * so that whatever else the machine does in the meantime weighs on both alike. Each figure is
 * the mean of a server's two runs.
 */
import { isDeepStrictEqual } from "node:util"
import { assertSameAnswer, send } from "./Answer.js"
import { drive, type LoadResult, type Request } from "./Load.js"
import { type ResultRow, row } from "./Report.js"
import type { Scenario, ScenarioContext } from "./Scenario.js"
import type { ServerPair } from "./Servers.js"

export interface MeasureOptions {
  readonly connections: ReadonlyArray<number>
  readonly seconds: number
}

const ROUNDS = 2
/** Sequential requests before measuring: lets V8 optimise and caches fill on both servers. */
const WARM_UP_REQUESTS = 30

/** Both servers' first answers must be the same (same records, same page token). */
const checkSameAnswer = async (scenario: Scenario, servers: ServerPair, requests: Requests) => {
  const ours = await send(servers.ours.origin, requests.ours())
  const baseline = await send(servers.baseline.origin, requests.baseline())
  if (scenario.sameAnswer !== false) assertSameAnswer(scenario.name, { ours, baseline }, isDeepStrictEqual)
}

const warmUp = async (origin: string, next: () => Request) => {
  for (let n = 0; n < WARM_UP_REQUESTS; n++) await send(origin, next())
}

type Requests = { readonly ours: () => Request; readonly baseline: () => Request }

const mean = (results: ReadonlyArray<LoadResult>, pick: (result: LoadResult) => number) =>
  results.reduce((sum, result) => sum + pick(result), 0) / results.length

export const measure = async (
  scenario: Scenario,
  context: ScenarioContext,
  servers: ServerPair,
  options: MeasureOptions
): Promise<Array<ResultRow>> => {
  const requests: Requests = { ours: scenario.requests(context), baseline: scenario.requests(context) }
  await checkSameAnswer(scenario, servers, requests)
  await warmUp(servers.ours.origin, requests.ours)
  await warmUp(servers.baseline.origin, requests.baseline)
  const rows: Array<ResultRow> = []
  for (const connections of scenario.connections ?? options.connections) {
    const runs = { ours: [] as Array<LoadResult>, baseline: [] as Array<LoadResult> }
    for (let round = 0; round < ROUNDS; round++) {
      for (const side of ["ours", "baseline"] as const) {
        runs[side].push(await drive(servers[side].origin, { connections, seconds: options.seconds, request: requests[side] }))
      }
    }
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
      baseline_p99_ms: mean(runs.baseline, (r) => r.p99Ms)
    }))
  }
  return rows
}
