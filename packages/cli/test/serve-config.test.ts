/**
 * `costline serve` as an operator runs it: the edge settings from the environment, JSON access
 * logs that never carry a credential, and a refusal to start on a setting that does not parse.
 */
import { ConfigProvider, Duration, Effect, Either } from "effect"
import { type AddressInfo, createServer } from "node:net"
import { describe, expect, it } from "vitest"
import { edgeOptions, parseOrigins, parseRateLimit } from "../src/ServeConfig.js"
import { freePort } from "./network.js"
import { costline, lastLine, scratchDir, startServerWith, stop } from "./support.js"

describe("edge settings from the environment", () => {
  it("COSTLINE_RATE_LIMIT is off or <rate>/<burst>", () => {
    expect(parseRateLimit("off")).toEqual(Either.right(false))
    expect(parseRateLimit(" 50 / 100 ")).toEqual(Either.right({ requestsPerSecond: 50, burst: 100 }))
    expect(parseRateLimit("0.5/1")).toEqual(Either.right({ requestsPerSecond: 0.5, burst: 1 }))
    for (const bad of ["", "50", "50/", "/100", "0/10", "50/0", "50/1.5", "fast/slow", "1/2/3"]) {
      expect(Either.isLeft(parseRateLimit(bad)), bad).toBe(true)
    }
  })

  it("COSTLINE_CORS_ORIGINS is * or a comma-separated list", () => {
    expect(parseOrigins("*")).toBe("*")
    expect(parseOrigins("https://a.example, https://b.example,")).toEqual(["https://a.example", "https://b.example"])
  })

  it("COSTLINE_ATTRIBUTION_TIMEOUT_MS is the attribution deadline, a positive number of milliseconds", () => {
    const read = (value: string) =>
      Effect.runSync(Effect.either(Effect.withConfigProvider(edgeOptions, ConfigProvider.fromMap(new Map([["COSTLINE_ATTRIBUTION_TIMEOUT_MS", value]])))))
    const options = read("1500")
    expect(Either.isRight(options) && options.right.attributionTimeout).toEqual(Duration.millis(1500))
    expect(Either.isLeft(read("0"))).toBe(true)
    expect(Either.isLeft(read("soon"))).toBe(true)
  })

  it("a server configured by them limits, allows origins, and logs each request as JSON without the token", { timeout: 120_000 }, async () => {
    const dir = scratchDir()
    const key = lastLine((await costline(dir, "seed", "--org", "acme")).stdout)
    const port = await freePort()
    const { child, output } = await startServerWith(
      { COSTLINE_RATE_LIMIT: "0.01/2", COSTLINE_CORS_ORIGINS: "https://app.example.com" },
      dir,
      "--port",
      String(port)
    )
    try {
      const get = () =>
        fetch(`http://127.0.0.1:${port}/v2/audit-logs`, {
          headers: { authorization: `Bearer ${key}`, "x-tenant-id": "acme", origin: "https://app.example.com", "x-request-id": "req-config" }
        })
      const replies = [await get(), await get(), await get()]
      expect(replies.map((reply) => reply.status)).toEqual([200, 200, 429])
      expect(replies[0]!.headers.get("ratelimit-policy")).toBe("\"default\";q=2;w=200")
      expect(replies[0]!.headers.get("access-control-allow-origin")).toBe("https://app.example.com")
    } finally {
      await stop(child)
    }
    const entries = output().split("\n").filter((line) => line.startsWith("{")).map((line) => JSON.parse(line))
    const served = entries.filter((entry) => entry.message === "request served" && entry.annotations.request_id === "req-config")
    expect(served.map((entry) => entry.annotations.status)).toEqual([200, 200, 429])
    expect(served[0].annotations).toMatchObject({ method: "GET", route: "/v2/audit-logs", tenant: "acme", duration_ms: expect.any(Number) })
    expect(output()).not.toContain(key)
  })

  it("a setting that does not parse stops the server with the reason", { timeout: 60_000 }, async () => {
    const dir = scratchDir()
    const failed = await startServerWith({ COSTLINE_RATE_LIMIT: "lots" }, dir, "--port", String(await freePort()))
      .then(() => "started", (error: Error) => error.message)
    expect(failed).toContain("serve exited early (1)")
    expect(failed).toContain("COSTLINE_RATE_LIMIT")
  })

  it("without --port it listens on COSTLINE_PORT, else PORT", { timeout: 120_000 }, async () => {
    for (const name of ["COSTLINE_PORT", "PORT"]) {
      const port = await freePort()
      const { child } = await startServerWith({ [name]: String(port) }, scratchDir())
      try {
        expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status, name).toBe(200)
      } finally {
        await stop(child)
      }
    }
  })

  it("a port variable that is not a port stops the server, naming it", { timeout: 60_000 }, async () => {
    const reasonFor = (env: Record<string, string>) =>
      startServerWith(env, scratchDir()).then(() => "started", (error: Error) => error.message)
    expect(await reasonFor({ COSTLINE_PORT: "abc" })).toContain("costline: COSTLINE_PORT: Expected an integer value")
    expect(await reasonFor({ PORT: "-5" })).toContain("costline: PORT must be a port number, 1 to 65535")
    expect(await reasonFor({ COSTLINE_READ_TIMEOUT_MS: "x" })).toContain("costline: COSTLINE_READ_TIMEOUT_MS: Expected an integer")
  })

  it("a port already in use stops the server with the system's reason", { timeout: 60_000 }, async () => {
    const taken = createServer()
    const port = await new Promise<number>((resolve) => taken.listen(0, "127.0.0.1", () => resolve((taken.address() as AddressInfo).port)))
    try {
      const failed = await startServerWith({}, scratchDir(), "--port", String(port)).then(() => "started", (error: Error) => error.message)
      expect(failed).toContain("serve exited early (1)")
      expect(failed).toContain("EADDRINUSE")
    } finally {
      taken.close()
    }
  })
})
