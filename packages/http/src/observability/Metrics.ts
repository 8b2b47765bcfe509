/**
 * Prometheus metrics of one server, on `prom-client` (the kept library, not hand-written text):
 * requests and latency by route template, method and status; refusals for rate limits (429) and
 * an unavailable store (503); the audit export's lag; and the process's own metrics (CPU, memory,
 * event-loop delay — the figure that shows a blocked loop). One registry per server, so several
 * servers in one process (tests, hosts mounting twice) never mix their counts.
 */
import type { StorePool } from "@costline/core"
import { Context, Effect, Option } from "effect"
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from "prom-client"

export interface Metrics {
  readonly registry: Registry
  /** One served request; `route` is the template (`/v2/teams/:team_id`), null when no route matched. */
  readonly request: (method: string, route: string | null, status: number, seconds: number) => void
  /** An audit export page: how far behind now its newest record is (0 when caught up). */
  readonly auditExported: (lagSeconds: number) => void
  /** Samples the store's connections at each scrape (`costline_store_connections`). */
  readonly watchStorePool: (sample: () => Promise<StorePool.PoolUsage | undefined>) => void
  /** The exposition text and its content type. */
  readonly scrape: Effect.Effect<{ readonly body: string; readonly contentType: string }>
}

export class ServerMetrics extends Context.Tag("@costline/http/ServerMetrics")<ServerMetrics, Metrics>() {}

/** Latency buckets (seconds): the API answers in milliseconds; long tails are analysis and attribution. */
const BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30]

export const make = (): Metrics => {
  const registry = new Registry()
  collectDefaultMetrics({ register: registry, prefix: "costline_" })
  const labelNames = ["method", "route", "status"] as const
  const requests = new Counter({
    name: "costline_http_requests_total",
    help: "HTTP requests served, by method, route template and status",
    labelNames,
    registers: [registry]
  })
  const latency = new Histogram({
    name: "costline_http_request_duration_seconds",
    help: "Time from request to response, by method, route template and status",
    labelNames,
    buckets: BUCKETS,
    registers: [registry]
  })
  const refused = new Counter({
    name: "costline_http_refused_total",
    help: "Requests refused because of a rate limit (reason=rate_limited, 429) or an unavailable store (reason=unavailable, 503)",
    labelNames: ["reason"] as const,
    registers: [registry]
  })
  const auditLag = new Gauge({
    name: "costline_audit_export_lag_seconds",
    help: "Age of the newest record in the last audit export page (0: the poller was caught up)",
    registers: [registry]
  })
  let samplePool: (() => Promise<StorePool.PoolUsage | undefined>) | undefined
  new Gauge({
    name: "costline_store_connections",
    help: "This instance's store connections at scrape time: in_use, idle, waiting (for a connection; SQLite: for the write lock) and max",
    labelNames: ["state"] as const,
    registers: [registry],
    async collect() {
      this.reset()
      const usage = samplePool === undefined ? undefined : await samplePool()
      if (usage === undefined) return
      this.set({ state: "in_use" }, usage.inUse)
      this.set({ state: "idle" }, usage.idle)
      this.set({ state: "max" }, usage.max)
      if (usage.waiting !== undefined) this.set({ state: "waiting" }, usage.waiting)
    }
  })
  // Present from the first scrape, so alerts on them need no `absent()`.
  refused.inc({ reason: "rate_limited" }, 0)
  refused.inc({ reason: "unavailable" }, 0)

  return {
    registry,
    request: (method, route, status, seconds) => {
      const labels = { method, route: route ?? "unmatched", status: String(status) }
      requests.inc(labels)
      latency.observe(labels, seconds)
      if (status === 429) refused.inc({ reason: "rate_limited" })
      if (status === 503) refused.inc({ reason: "unavailable" })
    },
    auditExported: (lagSeconds) => auditLag.set(Math.max(0, lagSeconds)),
    watchStorePool: (sample) => {
      samplePool = sample
    },
    scrape: Effect.promise(async () => ({ body: await registry.metrics(), contentType: registry.contentType }))
  }
}

/** Runs `f` with the server's metrics when the host turned them on; otherwise does nothing. */
export const whenEnabled = (f: (metrics: Metrics) => void): Effect.Effect<void> =>
  Effect.map(Effect.serviceOption(ServerMetrics), Option.match({ onNone: () => undefined, onSome: f }))
