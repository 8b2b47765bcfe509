/** The probe of a timed scenario: asks a path, one request at a time, for as long as a request runs. */
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { describe, expect, it } from "vitest"
import { percentile, probeWhile } from "../lib/MeasureTimed.js"

describe("probeWhile", () => {
  it("asks again and again until the long request ends, and times each answer", async () => {
    let answered = 0
    let finish: () => void = () => undefined
    const long = new Promise<void>((resolve) => (finish = resolve))
    const server = createServer((_, response) => {
      // The long request ends once the probe has been answered five times.
      if (++answered === 5) finish()
      response.end("{\"status\":\"ok\"}")
    })
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
    try {
      const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
      const latencies = await probeWhile(origin, "/healthz", long)
      expect(latencies.length).toBeGreaterThanOrEqual(4)
      expect(latencies.length).toBeLessThanOrEqual(answered)
      expect(latencies.every((ms) => ms >= 0)).toBe(true)
      expect(percentile(latencies, 99)).toBe(Math.max(...latencies))
    } finally {
      server.close()
    }
  })
})
