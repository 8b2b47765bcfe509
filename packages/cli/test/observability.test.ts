/** `costline serve` with COSTLINE_METRICS and COSTLINE_LOG_LEVEL, scraped and read as an operator would. */
import { describe, expect, it } from "vitest"
import { freePort } from "./network.js"
import { costlineWith, scratchDir, startServerWith, stop } from "./support.js"

describe("serve: metrics and log level from the environment", () => {
  it("COSTLINE_METRICS=<port> serves Prometheus text on that port only; COSTLINE_LOG_LEVEL=error silences the access log", async () => {
    const dir = scratchDir()
    const [apiPort, metricsPort] = [await freePort(), await freePort()]
    const server = await startServerWith(
      { COSTLINE_METRICS: String(metricsPort), COSTLINE_LOG_LEVEL: "error" },
      dir,
      "--demo",
      "--port",
      String(apiPort)
    )
    const token = /admin API key:\s+(clk_\S+)/.exec(server.output())?.[1]
    const api = await fetch(`http://127.0.0.1:${apiPort}/v2/insights`, {
      headers: { authorization: `Bearer ${token}`, "x-tenant-id": "demo" }
    })
    expect(api.status).toBe(200)
    expect((await fetch(`http://127.0.0.1:${apiPort}/metrics`)).status).toBe(404)
    const scrape = await fetch(`http://127.0.0.1:${metricsPort}/metrics`)
    expect(scrape.status).toBe(200)
    const text = await scrape.text()
    expect(text).toContain('costline_http_requests_total{method="GET",route="/v2/insights",status="200"} 1')
    expect(server.output()).not.toContain("request served")
    expect(await stop(server.child)).toBe(0)
  })

  it("a COSTLINE_METRICS or COSTLINE_LOG_LEVEL that does not parse stops serve with one line", async () => {
    const dir = scratchDir()
    const metrics = await costlineWith(dir, { COSTLINE_METRICS: "sometimes" }, "serve", "--port", "0")
    expect(metrics.code).toBe(1)
    expect(metrics.stderr.trim()).toMatch(/^costline: COSTLINE_METRICS must be 'on', 'off' or a port number/)
    const level = await costlineWith(dir, { COSTLINE_LOG_LEVEL: "loud" }, "serve", "--port", "0")
    expect(level.code).toBe(1)
    expect(level.stderr).toContain("COSTLINE_LOG_LEVEL must be debug, info, warning, error or none")
  })
})
