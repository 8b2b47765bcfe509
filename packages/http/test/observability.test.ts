/**
 * What an operator watches: Prometheus metrics scraped over HTTP, `/version`, and JSON log lines
 * at the configured level in every hosting mode.
 */
import { Metrics, toWebHandler } from "@costline/http"
import { SqliteStore } from "@costline/store-sqlite"
import { layer } from "@effect/vitest"
import { Effect, LogLevel } from "effect"
import { readFileSync } from "node:fs"
import { afterEach, describe, expect, it, vi } from "vitest"
import { call, makeTestServer, seedTenant } from "./support/TestServer.js"

/** The value of one sample line of the exposition text, by its full name and labels. */
const sample = (text: string, line: string): number | undefined => {
  const found = text.split("\n").find((candidate) => candidate.startsWith(`${line} `))
  return found === undefined ? undefined : Number(found.slice(line.length + 1))
}

layer(
  makeTestServer({ metrics: Metrics.make(), exposeMetrics: true, rateLimit: { requestsPerSecond: 1, burst: 2 } }),
  { excludeTestServices: true }
)("metrics at /metrics", (it) => {
  it.effect("count requests by route template, method and status, time them, count 429s, and report the audit export lag", () =>
    Effect.gen(function*() {
      const tenant = yield* seedTenant
      const as = { token: tenant.adminKey, tenant: tenant.id }
      expect((yield* call("GET", "/v2/audit-logs?max_results=1", as)).status).toBe(200)
      expect((yield* call("GET", "/v2/teams/7b0c3c0e-0000-4000-8000-000000000000", as)).status).toBe(404)
      let limited = 0
      for (let i = 0; i < 4; i++) if ((yield* call("GET", "/v2/insights", as)).status === 429) limited++
      expect(limited).toBeGreaterThan(0)

      const scrape = yield* call("GET", "/metrics")
      expect(scrape.status).toBe(200)
      expect(scrape.headers.get("content-type")).toContain("text/plain")
      const text = scrape.text
      expect(sample(text, 'costline_http_requests_total{method="GET",route="/v2/audit-logs",status="200"}')).toBe(1)
      expect(sample(text, 'costline_http_requests_total{method="GET",route="/v2/teams/:team_id",status="404"}')).toBe(1)
      expect(sample(text, 'costline_http_requests_total{method="GET",route="/v2/insights",status="429"}')).toBe(limited)
      expect(sample(text, 'costline_http_refused_total{reason="rate_limited"}')).toBe(limited)
      expect(sample(text, 'costline_http_refused_total{reason="unavailable"}')).toBe(0)
      expect(sample(text, 'costline_http_request_duration_seconds_count{method="GET",route="/v2/audit-logs",status="200"}')).toBe(1)
      expect(sample(text, 'costline_http_request_duration_seconds_bucket{le="+Inf",method="GET",route="/v2/audit-logs",status="200"}'))
        .toBe(1)
      // The page held the tenant's oldest record: its age, in seconds, not zero and not absurd.
      const lag = sample(text, "costline_audit_export_lag_seconds")
      expect(lag).toBeGreaterThanOrEqual(0)
      expect(lag).toBeLessThan(600)
      // The process's own figures, the event-loop delay among them.
      expect(text).toContain("costline_nodejs_eventloop_lag_seconds")
      expect(text).toContain("costline_process_cpu_user_seconds_total")
      // Never a concrete path or an id.
      expect(text).not.toContain("7b0c3c0e")
    }))

  it.effect("/version names the package version, the store and its migrations", () =>
    Effect.gen(function*() {
      const reply = yield* call("GET", "/version")
      expect(reply.status).toBe(200)
      const pkg = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as { version: string }
      expect(reply.body.version).toBe(pkg.version)
      expect(reply.body.store).toBe("sqlite")
      expect(reply.body.migrations.pending).toEqual([])
      expect(reply.body.migrations.applied).toBeGreaterThan(0)
      expect(reply.body.migrations.latest).toMatch(/^\d{4}_/)
    }))
})

layer(makeTestServer({ metrics: Metrics.make() }), { excludeTestServices: true })("metrics kept off the API port", (it) => {
  it.effect("without exposeMetrics, /metrics is not a route", () =>
    Effect.gen(function*() {
      expect((yield* call("GET", "/metrics")).status).toBe(404)
    }))
})

describe("logs", () => {
  afterEach(() => vi.restoreAllMocks())

  const linesWritten = async (logLevel: LogLevel.LogLevel | undefined) => {
    const written: Array<string> = []
    vi.spyOn(process.stdout, "write").mockImplementation((chunk: string | Uint8Array) => {
      written.push(String(chunk))
      return true
    })
    const handler = toWebHandler({ store: SqliteStore.layer({ filename: ":memory:" }), accessLog: true, logLevel })
    await handler(new Request("http://host.example/v2/audit-logs"))
    await handler.dispose()
    vi.restoreAllMocks()
    return written.join("").split("\n").filter((line) => line.length > 0)
  }

  it("a mounted API logs JSON lines, as the bundled server does", async () => {
    const lines = await linesWritten(undefined)
    const served = lines.map((line) => JSON.parse(line)).find((entry) => entry.message === "request served")
    expect(served).toMatchObject({ logLevel: "INFO", annotations: { method: "GET", route: "/v2/audit-logs", status: 401 } })
  })

  it("logLevel drops what is less severe", async () => {
    const lines = await linesWritten(LogLevel.Error)
    expect(lines.filter((line) => line.includes("request served"))).toEqual([])
  })
})
