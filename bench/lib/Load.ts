/**
 * One load run: autocannon against a server over loopback for a fixed time at a fixed number of
 * connections. A run with any error or non-2xx answer is a broken benchmark, not a slow one.
 */
import autocannon from "autocannon"

export interface Request {
  readonly method: "GET" | "POST" | "PATCH"
  readonly path: string
  readonly headers: Record<string, string>
  readonly body?: string
}

export interface LoadPlan {
  readonly connections: number
  readonly seconds: number
  /** The request to send; called before every request, so requests may vary. */
  readonly request: () => Request
}

export interface LoadResult {
  /** Requests answered over the run. */
  readonly requests: number
  readonly requestsPerSecond: number
  readonly p50Ms: number
  readonly p99Ms: number
}

export const drive = async (origin: string, plan: LoadPlan): Promise<LoadResult> => {
  const first = plan.request()
  const result = await autocannon({
    url: origin,
    connections: plan.connections,
    duration: plan.seconds,
    method: first.method,
    requests: [{ setupRequest: (request) => ({ ...request, ...plan.request() }) }]
  })
  const failed = result.errors + result.timeouts + result.non2xx
  if (failed > 0) {
    throw new Error(`${origin}${first.path}: ${failed} of ${result.requests.total} requests failed (non-2xx ${result.non2xx})`)
  }
  return { requests: result.requests.total, requestsPerSecond: result.requests.total / result.duration, p50Ms: result.latency.p50, p99Ms: result.latency.p99 }
}
