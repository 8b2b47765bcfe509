/**
 * `costline serve` exports traces over OTLP/HTTP when OpenTelemetry's standard variables point it at
 * a collector: here an in-process receiver that records what arrives.
 */
import { ConfigProvider, Effect, Either, Option } from "effect"
import { execFile } from "node:child_process"
import { createServer, type IncomingHttpHeaders } from "node:http"
import type { AddressInfo } from "node:net"
import { describe, expect, it } from "vitest"
import { parseOtlpHeaders, tracingOptions } from "../src/ServeConfig.js"
import { freePort } from "./network.js"
import { BIN, costlineWith, scratchDir, startServerWith, stop } from "./support.js"

interface Received {
  readonly path: string
  readonly headers: IncomingHttpHeaders
  readonly body: Buffer
}

const receiver = async () => {
  const received: Array<Received> = []
  const server = createServer((request, response) => {
    const chunks: Array<Buffer> = []
    request.on("data", (chunk: Buffer) => chunks.push(chunk))
    request.on("end", () => {
      received.push({ path: request.url ?? "", headers: request.headers, body: Buffer.concat(chunks) })
      response.writeHead(200, { "content-type": "application/json" }).end("{}")
    })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve()))
  }
}

/** Waits for a condition on what the receiver holds (the exporter batches every 100 ms here). */
const until = async (condition: () => boolean, deadlineMs = 20_000) => {
  const deadline = Date.now() + deadlineMs
  while (!condition()) {
    if (Date.now() > deadline) throw new Error("the collector received nothing matching in time")
    await new Promise((resolve) => setImmediate(resolve))
  }
}

interface JsonSpan {
  readonly name: string
  readonly attributes: ReadonlyArray<{ key: string; value: { stringValue?: string; intValue?: string | number } }>
}

const spansOf = (received: ReadonlyArray<Received>): Array<JsonSpan> =>
  received.flatMap((request) =>
    (JSON.parse(request.body.toString("utf8")) as {
      resourceSpans: Array<{ scopeSpans: Array<{ spans: Array<JsonSpan> }> }>
    }).resourceSpans.flatMap((resource) => resource.scopeSpans.flatMap((scope) => scope.spans))
  )

const attribute = (span: JsonSpan, key: string) => {
  const value = span.attributes.find((entry) => entry.key === key)?.value
  return value?.stringValue ?? (value?.intValue === undefined ? undefined : Number(value.intValue))
}

const demoRequest = async (port: number, output: string, path: string) => {
  const token = /admin API key:\s+(clk_\S+)/.exec(output)?.[1]
  return fetch(`http://127.0.0.1:${port}${path}`, { headers: { authorization: `Bearer ${token}`, "x-tenant-id": "demo" } })
}

describe("serve: OTLP trace export", () => {
  it("http/json: server spans carry route, status and request id; SQL statements are spans; headers are sent", { timeout: 120_000 }, async () => {
    const collector = await receiver()
    const port = await freePort()
    const server = await startServerWith(
      {
        OTEL_EXPORTER_OTLP_ENDPOINT: `${collector.url}/`,
        OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
        OTEL_EXPORTER_OTLP_HEADERS: "x-collector-key=s%20ecret",
        OTEL_SERVICE_NAME: "costline-test",
        OTEL_BSP_SCHEDULE_DELAY: "100"
      },
      scratchDir(),
      "--demo",
      "--port",
      String(port)
    )
    const response = await demoRequest(port, server.output(), "/v2/insights?status__in=open")
    expect(response.status).toBe(200)
    const requestId = response.headers.get("x-request-id")
    await until(() => spansOf(collector.received).some((span) => span.name.startsWith("http.server")))
    const serverSpan = spansOf(collector.received).find((span) => span.name.startsWith("http.server"))!
    expect(attribute(serverSpan, "http.route")).toBe("/v2/insights")
    expect(attribute(serverSpan, "http.response.status_code")).toBe(200)
    expect(attribute(serverSpan, "costline.request_id")).toBe(requestId)
    const statements = spansOf(collector.received).filter((span) => span.name === "sql.execute")
    expect(statements.some((span) => String(attribute(span, "db.query.text")).includes("FROM api_keys"))).toBe(true)
    expect(collector.received.every((request) => request.path === "/v1/traces")).toBe(true)
    expect(collector.received[0]!.headers["x-collector-key"]).toBe("s ecret")
    expect(collector.received[0]!.body.toString("utf8")).toContain("costline-test")
    expect(await stop(server.child)).toBe(0)
    await collector.close()
  })

  it("http/protobuf (the default) to the traces endpoint itself; the spans of the last requests are flushed on shutdown", { timeout: 120_000 }, async () => {
    const collector = await receiver()
    const port = await freePort()
    // A batch delay far longer than the test: only the flush on shutdown can deliver the span.
    const server = await startServerWith(
      { OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: `${collector.url}/custom/traces`, OTEL_BSP_SCHEDULE_DELAY: "600000" },
      scratchDir(),
      "--demo",
      "--port",
      String(port)
    )
    expect((await demoRequest(port, server.output(), "/v2/audit-logs")).status).toBe(200)
    expect(await stop(server.child)).toBe(0)
    const bodies = collector.received.filter((request) => request.path === "/custom/traces")
    expect(bodies.length).toBeGreaterThan(0)
    expect(bodies[0]!.headers["content-type"]).toBe("application/x-protobuf")
    // Protobuf strings are UTF-8 bytes on the wire: the route template is there as text.
    expect(Buffer.concat(bodies.map((request) => request.body)).includes("/v2/audit-logs")).toBe(true)
    await collector.close()
  })

  it("reads OpenTelemetry's variables; off when unset, disabled or another exporter is named", () => {
    const read = (entries: Record<string, string>) =>
      Effect.runSync(Effect.either(Effect.withConfigProvider(tracingOptions, ConfigProvider.fromMap(new Map(Object.entries(entries))))))
    expect(read({})).toEqual(Either.right(Option.none()))
    expect(read({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://c:4318", OTEL_SDK_DISABLED: "true" })).toEqual(Either.right(Option.none()))
    expect(read({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://c:4318", OTEL_TRACES_EXPORTER: "none" })).toEqual(Either.right(Option.none()))
    const on = read({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://c:4318/", OTEL_TRACES_EXPORTER: "otlp" })
    expect(Either.isRight(on) && Option.getOrUndefined(on.right)).toMatchObject({
      url: "http://c:4318/v1/traces",
      protocol: "http/protobuf",
      serviceName: "costline"
    })
    // The signal-specific variables win over the general ones.
    const specific = read({
      OTEL_EXPORTER_OTLP_ENDPOINT: "http://c:4318",
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "https://t.example/v1/t",
      OTEL_EXPORTER_OTLP_PROTOCOL: "http/protobuf",
      OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: "http/json"
    })
    expect(Either.isRight(specific) && Option.getOrUndefined(specific.right)).toMatchObject({ url: "https://t.example/v1/t", protocol: "http/json" })
    expect(Either.isLeft(read({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://c:4317", OTEL_EXPORTER_OTLP_PROTOCOL: "grpc" }))).toBe(true)
    expect(Either.isLeft(read({ OTEL_EXPORTER_OTLP_ENDPOINT: "ftp://c" }))).toBe(true)
    expect(Either.isLeft(read({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://c:4318", OTEL_BSP_SCHEDULE_DELAY: "soon" }))).toBe(true)
    expect(parseOtlpHeaders("a=1, b = x%3Dy ,")).toEqual(Either.right({ a: "1", b: "x=y" }))
    expect(Either.isLeft(parseOtlpHeaders("novalue"))).toBe(true)
    expect(Either.isLeft(parseOtlpHeaders("a=%E0%A4%A"))).toBe(true)
  })

  it("an OTLP setting that does not parse stops serve with one line", async () => {
    const result = await costlineWith(scratchDir(), { OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:4317", OTEL_EXPORTER_OTLP_PROTOCOL: "grpc" }, "serve", "--port", "0")
    expect(result.code).toBe(1)
    expect(result.stderr.trim()).toMatch(/^costline: OTEL_EXPORTER_OTLP_PROTOCOL must be http\/protobuf or http\/json \(grpc is not supported\)/)
  })
})

describe("the costline launcher", () => {
  it("refuses a Node.js older than 22 with one line (the SQLite addon would crash there)", async () => {
    // The machine's Node is whatever runs the tests; pretend to be Node 20 before the launcher runs.
    const pretend20 = `data:text/javascript,Object.defineProperty(process, "versions", { value: { ...process.versions, node: "20.20.0" } }); Object.defineProperty(process, "version", { value: "v20.20.0" })`
    const result = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
      execFile(process.execPath, ["--import", pretend20, BIN, "--help"], (error, _stdout, stderr) =>
        resolve({ code: error === null ? 0 : (error.code as number), stderr }))
    })
    expect(result.code).toBe(1)
    expect(result.stderr.trim()).toBe(
      "costline: Node.js 22 or newer is required (this is v20.20.0); in this repository, npm start and npm run costline use the Node it installs"
    )
  })
})
