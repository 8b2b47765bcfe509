/**
 * The edges of a request, through the real server: how deeply a body may nest, which content
 * types a body may have, the one spelling of each route's path, bodies streamed over the limit,
 * slow headers, and failed authentication per client address.
 */
import { contractSecrets } from "@costline/store-contract"
import { CostlineApi, makeHandler, MAX_JSON_DEPTH, Metrics } from "@costline/http"
import { SqliteStore } from "@costline/store-sqlite"
import { it, layer } from "@effect/vitest"
import { Effect, Layer, Option } from "effect"
import { mkdtempSync, rmSync } from "node:fs"
import { createServer } from "node:http"
import { type AddressInfo, connect } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { describe, expect } from "vitest"
import * as GracefulShutdown from "../src/GracefulShutdown.js"
import * as RouteTable from "../src/routing/RouteTable.js"
import { baseUrl, call, makeTestServer, seedTenant } from "./support/TestServer.js"

/** Sends raw bytes and returns everything the server writes until it closes the connection. */
export const rawExchange = (write: (send: (data: string) => void) => void) =>
  Effect.flatMap(baseUrl, (base) =>
    Effect.async<{ readonly received: string; readonly error: string | undefined }>((resume) => {
      const { hostname, port } = new URL(base)
      let received = ""
      let error: string | undefined
      const socket = connect(Number(port), hostname, () => write((data) => socket.write(data)))
      socket.on("data", (chunk) => (received += chunk.toString()))
      socket.on("error", (cause) => (error = cause.message))
      socket.on("close", () => resume(Effect.succeed({ received, error })))
    }))

/** The complete HTTP responses in `received` (each with its Content-Length body). */
const responsesIn = (received: string): Array<{ readonly head: string; readonly body: string }> => {
  const responses: Array<{ head: string; body: string }> = []
  let rest = received
  for (;;) {
    const end = rest.indexOf("\r\n\r\n")
    if (end === -1) return responses
    const head = rest.slice(0, end)
    const length = Number(/content-length: (\d+)/i.exec(head)?.[1] ?? 0)
    if (rest.length < end + 4 + length) return responses
    responses.push({ head, body: rest.slice(end + 4, end + 4 + length) })
    rest = rest.slice(end + 4 + length)
  }
}

/** Writes `data` on one connection and collects `count` responses, then closes it. */
const exchange = (data: ReadonlyArray<string>, count: number) =>
  Effect.flatMap(baseUrl, (base) =>
    Effect.async<{ readonly responses: ReturnType<typeof responsesIn>; readonly error: string | undefined }>((resume) => {
      const { hostname, port } = new URL(base)
      let received = ""
      let error: string | undefined
      const socket = connect(Number(port), hostname, () => data.forEach((part) => socket.write(part)))
      socket.on("data", (chunk) => {
        received += chunk.toString()
        if (responsesIn(received).length >= count) socket.destroy()
      })
      socket.on("error", (cause) => (error = cause.message))
      socket.on("close", () => resume(Effect.succeed({ responses: responsesIn(received), error })))
    }))

const nested = (depth: number) => `{"name":${"[".repeat(depth - 1)}${"]".repeat(depth - 1)}}`

/** Every operation that takes a body, with a placeholder for each path parameter. */
const bodyRoutes = RouteTable.fromApi(CostlineApi).routes
  .filter((route) => Option.isSome(route.endpoint.payloadSchema) && route.method !== "GET")
  .map((route) => ({
    method: route.method,
    path: route.segments.map((segment) => "param" in segment ? "x" : segment.literal).join("/")
  }))

describe("JSON nesting", () => {
  layer(makeTestServer(), { excludeTestServices: true })((it) => {
    it.effect("a body nested deeper than the limit is a 400 on every operation that takes one, in its version's shape", () =>
      Effect.gen(function*() {
        const tenant = yield* seedTenant
        // 10,000 levels in 20 KB: what overflowed the stack.
        const deep = nested(10_000)
        expect(bodyRoutes.length).toBeGreaterThanOrEqual(24)
        for (const route of bodyRoutes) {
          const reply = yield* call(route.method, `/${route.path}`, {
            token: tenant.adminKey,
            tenant: tenant.id,
            headers: { "content-type": "application/json" },
            body: deep
          })
          const detail = `the request body nests deeper than ${MAX_JSON_DEPTH} levels`
          expect({ route, status: reply.status }).toEqual({ route, status: 400 })
          if (route.path.startsWith("api/")) expect(reply.body).toEqual({ detail })
          else expect(reply.body).toMatchObject({ code: "bad_request", detail })
        }
      }))

    it.effect("the limit counts brackets, not brackets inside strings", () =>
      Effect.gen(function*() {
        const tenant = yield* seedTenant
        const over = yield* call("POST", "/v2/teams", {
          token: tenant.adminKey,
          tenant: tenant.id,
          headers: { "content-type": "application/json" },
          body: nested(MAX_JSON_DEPTH + 1)
        })
        expect(over.status).toBe(400)
        // At the limit the body is parsed, and refused for its shape.
        const at = yield* call("POST", "/v2/teams", {
          token: tenant.adminKey,
          tenant: tenant.id,
          headers: { "content-type": "application/json" },
          body: nested(MAX_JSON_DEPTH)
        })
        expect(at.status).toBe(422)
        const quoted = yield* call("POST", "/v2/teams", {
          token: tenant.adminKey,
          tenant: tenant.id,
          json: { name: `{\\"${"[".repeat(MAX_JSON_DEPTH + 1)}` }
        })
        expect(quoted.status).toBe(201)
      }))
  })
})

describe("content types", () => {
  layer(makeTestServer(), { excludeTestServices: true })((it) => {
    const post = (path: string, headers: Record<string, string | undefined>, tenant: { id: string; adminKey: string }) =>
      rawExchange((send) => {
        const body = JSON.stringify({ name: `t-${Math.random()}` })
        const lines = [
          `POST ${path} HTTP/1.1`,
          "host: localhost",
          "connection: close",
          `authorization: Bearer ${tenant.adminKey}`,
          `x-tenant-id: ${tenant.id}`,
          `content-length: ${Buffer.byteLength(body)}`,
          ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`)
        ]
        send([...lines, "", body].join("\r\n"))
      })

    it.effect("a body without a Content-Type is a 415, in both versions", () =>
      Effect.gen(function*() {
        const tenant = yield* seedTenant
        const v2 = yield* post("/v2/teams", {}, tenant)
        expect(v2.received).toMatch(/^HTTP\/1\.1 415 /)
        expect(v2.received).toContain("\"code\":\"unsupported_media_type\"")
        const v1 = yield* post(`/api/${tenant.id}/teams`, {}, tenant)
        expect(v1.received).toMatch(/^HTTP\/1\.1 415 /)
        expect(v1.received).toContain("{\"detail\":\"a request body needs a content type; send application/json\"}")
      }))

    it.effect("JSON in a charset other than UTF-8 is a 415; UTF-8, said or not, is accepted", () =>
      Effect.gen(function*() {
        const tenant = yield* seedTenant
        for (const contentType of ["application/json; charset=latin1", "application/json;charset=\"utf-16\""]) {
          const reply = yield* post("/v2/teams", { "content-type": contentType }, tenant)
          expect(reply.received).toMatch(/^HTTP\/1\.1 415 /)
        }
        for (const contentType of ["application/json", "application/json; charset=UTF-8", "application/json;charset=\"utf-8\""]) {
          const reply = yield* post("/v2/teams", { "content-type": contentType }, tenant)
          expect(reply.received).toMatch(/^HTTP\/1\.1 201 /)
        }
      }))

    it.effect("a JSON merge patch is still accepted on PATCH", () =>
      Effect.gen(function*() {
        const tenant = yield* seedTenant
        const created = yield* call("POST", "/v2/teams", { token: tenant.adminKey, tenant: tenant.id, json: { name: "Patchable" } })
        const patched = yield* call("PATCH", `/v2/teams/${created.body.id}`, {
          token: tenant.adminKey,
          tenant: tenant.id,
          headers: { "content-type": "application/merge-patch+json; charset=utf-8", "if-match": created.body.etag },
          body: JSON.stringify({ name: "Patched" })
        })
        expect(patched.status).toBe(200)
        expect(patched.body.name).toBe("Patched")
      }))
  })
})

/** Spellings of `/v2/audit-logs` that the router would take for it; each must be a 404. */
const NON_CANONICAL = [
  "/V2/AUDIT-LOGS",
  "/v2/Audit-Logs",
  "//v2/audit-logs",
  "/v2//audit-logs",
  "/v2/audit-logs/",
  "/v2/audit-logs;x",
  "/v2/%61udit-logs"
]

describe("one path per route", () => {
  layer(makeTestServer(), { excludeTestServices: true })((it) => {
    it.effect("only the exact spelling of a route's path reaches it; the others are 404, in the caller's version", () =>
      Effect.gen(function*() {
        const tenant = yield* seedTenant
        const auth = { token: tenant.adminKey, tenant: tenant.id }
        expect((yield* call("GET", "/v2/audit-logs", auth)).status).toBe(200)
        for (const path of NON_CANONICAL) {
          const reply = yield* call("GET", path, auth)
          expect({ path, status: reply.status }).toEqual({ path, status: 404 })
          expect(reply.body.code).toBe("not_found")
        }
        const v1 = yield* call("GET", `/API/${tenant.id}/teams/x`, { token: tenant.adminKey })
        expect(v1.status).toBe(404)
        expect((yield* call("GET", `/api/${tenant.id}/teams/x/`, { token: tenant.adminKey })).body).toEqual({
          detail: `no route for GET /api/${tenant.id}/teams/x/`
        })
        // Parameters are values, not spellings: any case, percent-decoded.
        const created = yield* call("POST", "/v2/teams", { ...auth, json: { name: "Spelled" } })
        expect((yield* call("GET", `/v2/teams/${encodeURIComponent(created.body.id)}`, auth)).status).toBe(200)
      }))

    it.effect("a wrong method on a wrongly spelled path is a 404, not a 405", () =>
      Effect.gen(function*() {
        expect((yield* call("DELETE", "/V2/AUDIT-LOGS")).status).toBe(404)
        expect((yield* call("DELETE", "/v2/audit-logs")).status).toBe(405)
      }))

    it.effect("the documents and probes have one spelling too", () =>
      Effect.gen(function*() {
        expect((yield* call("GET", "/healthz")).status).toBe(200)
        expect((yield* call("GET", "/v2/openapi.json")).status).toBe(200)
        for (const path of ["/HEALTHZ", "/healthz/", "//healthz", "/V2/openapi.json", "/docs/"]) {
          expect({ path, status: (yield* call("GET", path)).status }).toEqual({ path, status: 404 })
        }
      }))
  })

  it.live("under a mount base path as well", () =>
    Effect.gen(function*() {
      const directory = yield* Effect.acquireRelease(
        Effect.sync(() => mkdtempSync(join(tmpdir(), "costline-edges-"))),
        (directory) => Effect.sync(() => rmSync(directory, { recursive: true, force: true }))
      )
      const store = SqliteStore.layer({ filename: join(directory, "costline.db") })
      const tenant = yield* Effect.provide(seedTenant, yield* Layer.build(makeTestServer({ store })))
      const handler = makeHandler({ store, secrets: contractSecrets, rateLimit: false, basePath: "/cost" })
      yield* Effect.addFinalizer(() => Effect.promise(() => handler.dispose()))
      const server = createServer(handler)
      yield* Effect.acquireRelease(
        Effect.async<void>((resume) => void server.listen(0, "127.0.0.1", () => resume(Effect.void))),
        () => Effect.async<void>((resume) => void server.close(() => resume(Effect.void)))
      )
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
      const get = (path: string) =>
        Effect.promise(() =>
          fetch(`${base}${path}`, { headers: { authorization: `Bearer ${tenant.adminKey}`, "x-tenant-id": tenant.id } })
        ).pipe(Effect.map((response) => response.status))
      expect(yield* get("/cost/v2/audit-logs")).toBe(200)
      for (const path of [...NON_CANONICAL.map((path) => `/cost${path}`), "/COST/v2/audit-logs", "/cost//v2/audit-logs"]) {
        expect({ path, status: yield* get(path) }).toEqual({ path, status: 404 })
      }
    }).pipe(Effect.scoped))
})

describe("slow headers", () => {
  layer(makeTestServer({ headersTimeout: "300 millis" }), { excludeTestServices: true })((it) => {
    it.effect("headers that do not arrive within the headers timeout are answered 408 and the connection closed, promptly", () =>
      Effect.gen(function*() {
        const started = Date.now()
        const { received } = yield* rawExchange((send) => send("GET /v2/audit-logs HTTP/1.1\r\nhost: localhost\r\n"))
        expect(received).toMatch(/^HTTP\/1\.1 408 /)
        // Node's own check runs every 30 s: without a shorter interval this took up to 30 s more.
        expect(Date.now() - started).toBeLessThan(5_000)
      }))

    it.effect("headers that arrive in time are served as usual", () =>
      Effect.gen(function*() {
        expect((yield* call("GET", "/healthz")).status).toBe(200)
      }))
  })
})

describe("requests Node refuses before any handler", () => {
  /** The one response in `received`: status, headers (lower-cased names) and parsed body. */
  const parsed = (received: string) => {
    const [head = "", body = ""] = received.split("\r\n\r\n")
    const [statusLine = "", ...lines] = head.split("\r\n")
    const headers = Object.fromEntries(lines.map((line) => [line.slice(0, line.indexOf(":")).toLowerCase(), line.slice(line.indexOf(":") + 1).trim()]))
    return { status: Number(statusLine.split(" ")[1]), headers, body: body.length > 0 ? JSON.parse(body) : undefined }
  }

  layer(makeTestServer({ headersTimeout: "300 millis" }), { excludeTestServices: true })((it) => {
    it.effect("get the documented body in the request's version, and the connection is closed", () =>
      Effect.gen(function*() {
        const cases = [
          // A chunk size that is not hexadecimal.
          ["POST /v2/teams HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ntransfer-encoding: chunked\r\n\r\nzz\r\n", 400, "bad_request", "v2"],
          ["POST /api/demo/teams HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ntransfer-encoding: chunked\r\n\r\nzz\r\n", 400, "bad_request", "v1"],
          ["PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n", 400, "bad_request", "v2"],
          [`GET /v2/insights HTTP/1.1\r\nhost: x\r\n${"x-padding: 0123456789\r\n".repeat(2000)}\r\n`, 431, "headers_too_large", "v2"],
          ["GET /v2/insights HTTP/1.1\r\nhost: x\r\n", 408, "request_timeout", "v2"],
          [`POST /v2/teams HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ntransfer-encoding: chunked\r\n\r\n2;${"a".repeat(20_000)}\r\n{}\r\n0\r\n\r\n`, 413, "payload_too_large", "v2"],
          ["POST /v2/teams HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: 2\r\nexpect: 200-ok\r\n\r\n{}", 417, "expectation_failed", "v2"],
          ["POST /api/demo/teams HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: 2\r\nexpect: 200-ok\r\n\r\n{}", 417, "expectation_failed", "v1"]
        ] as const
        for (const [request, status, code, version] of cases) {
          const { received } = yield* rawExchange((send) => send(request))
          const answer = parsed(received)
          expect(answer.status, request.slice(0, 40)).toBe(status)
          expect(answer.headers["connection"]).toBe("close")
          if (version === "v2") {
            expect(answer.headers["content-type"]).toBe("application/problem+json")
            expect(answer.body).toMatchObject({ type: `urn:costline:problem:${code}`, status, code, details: [] })
            expect(answer.body.request_id).toBe(answer.headers["x-request-id"])
          } else {
            expect(answer.headers["content-type"]).toBe("application/json")
            expect(answer.body).toEqual({ detail: expect.any(String) })
          }
        }
        expect((yield* call("GET", "/healthz")).status).toBe(200)
      }))
  })
})

describe("pipelined requests", () => {
  const PIPELINE_LIMIT = GracefulShutdown.MAX_REQUESTS_IN_FLIGHT_PER_CONNECTION
  const HEALTHZ = "GET /healthz HTTP/1.1\r\nhost: localhost\r\n\r\n"

  /** Requests the server has served (computed an answer for), from its metrics. */
  const served = Effect.flatMap(baseUrl, (base) => Effect.promise(() => fetch(`${base}/metrics`).then((reply) => reply.text()))).pipe(
    Effect.map((text) => {
      const samples = text.split("\n").filter((line) => line.startsWith("costline_http_requests_total{"))
      expect(samples.length).toBeGreaterThan(0)
      return samples.reduce((sum, line) => sum + Number(line.slice(line.lastIndexOf(" ") + 1)), 0)
    })
  )

  layer(makeTestServer({ metrics: Metrics.make(), exposeMetrics: true }), { excludeTestServices: true })((it) => {
    it.effect("up to the limit in one write, every request is answered in order on the same connection", () =>
      Effect.gen(function*() {
        const { responses } = yield* exchange([HEALTHZ.repeat(PIPELINE_LIMIT)], PIPELINE_LIMIT)
        expect(responses).toHaveLength(PIPELINE_LIMIT)
        for (const response of responses) expect(response.head).toMatch(/^HTTP\/1\.1 200 /)
      }))

    it.effect("a client that pipelines more than that is cut off: Node would answer (and hold in memory) every one", () =>
      Effect.gen(function*() {
        const before = yield* served
        // 2,000 requests in one 80 KB write, none of their answers read until the end.
        const { responses } = yield* exchange([HEALTHZ.repeat(2000)], PIPELINE_LIMIT + 1)
        expect(responses.length).toBeLessThanOrEqual(PIPELINE_LIMIT)
        // Nor were the rest computed for nobody: Node had parsed them all before it stopped reading.
        expect((yield* served) - before).toBeLessThanOrEqual(PIPELINE_LIMIT + 1)
        // Only that connection: the server serves the next one.
        expect((yield* call("GET", "/healthz")).status).toBe(200)
      }))
  })
})

const LIMIT = 2048

const chunked = (path: string, tenant: { id: string; adminKey: string }, bytes: number) => [
  [
    `POST ${path} HTTP/1.1`,
    "host: localhost",
    "content-type: application/json",
    "transfer-encoding: chunked",
    `authorization: Bearer ${tenant.adminKey}`,
    `x-tenant-id: ${tenant.id}`,
    "",
    ""
  ].join("\r\n"),
  ...Array.from({ length: Math.ceil(bytes / 1000) }, (_, index) => {
    // A comment in the SQL pads it: a body member the operation does not declare would be refused.
    const chunk = index === 0 ? `{"query_text":"SELECT 'chunked' -- ${"x".repeat(968)}` : "x".repeat(1000)
    return `${chunk.length.toString(16)}\r\n${chunk}\r\n`
  }),
  "3\r\n\"}\n\r\n0\r\n\r\n"
]

const HEALTH = "GET /healthz HTTP/1.1\r\nhost: localhost\r\n\r\n"

describe("bodies of unannounced length", () => {
  layer(makeTestServer({ maxBodyBytes: LIMIT }), { excludeTestServices: true })((it) => {
    it.effect("a chunked body over the limit is answered 413, and the connection serves the next request", () =>
      Effect.gen(function*() {
        const tenant = yield* seedTenant
        for (const size of [LIMIT * 2, 1_000_000]) {
          const { error, responses } = yield* exchange([...chunked("/v2/teams", tenant, size), HEALTH], 2)
          expect(error).toBeUndefined()
          expect(responses.map(({ head }) => head.split("\r\n", 1)[0])).toEqual([
            "HTTP/1.1 413 Payload Too Large",
            "HTTP/1.1 200 OK"
          ])
          expect(JSON.parse(responses[0]!.body)).toMatchObject({
            code: "payload_too_large",
            detail: `the request body exceeds ${LIMIT} bytes`
          })
        }
        const v1 = yield* exchange(chunked(`/api/${tenant.id}/teams`, tenant, LIMIT * 2), 1)
        expect(JSON.parse(v1.responses[0]!.body)).toEqual({ detail: `the request body exceeds ${LIMIT} bytes` })
        const audit = yield* call("GET", "/v2/audit-logs?resource__in=teams", { token: tenant.adminKey, tenant: tenant.id })
        expect(audit.body.items).toEqual([])
      }))

    it.effect("a chunked body within the limit is served", () =>
      Effect.gen(function*() {
        const tenant = yield* seedTenant
        const { responses } = yield* exchange(chunked("/v2/insights/actions/analyze-query", tenant, LIMIT - 100), 1)
        expect(responses[0]!.head).toMatch(/^HTTP\/1\.1 200 /)
        expect(JSON.parse(responses[0]!.body)).toHaveProperty("items")
      }))
  })
})

describe("failed authentication per client address", () => {
  const POLICY = { requestsPerSecond: 0.01, burst: 3 }
  layer(makeTestServer({ authFailureLimit: POLICY }), { excludeTestServices: true })("socket address", (it) => {
    it.effect("after its burst of failures an address gets 429 with Retry-After in each version's body, even with a valid key", () =>
      Effect.gen(function*() {
        const tenant = yield* seedTenant
        // The valid key in use first: its verification is kept, and must not let it past the limit.
        for (let i = 0; i < 3; i++) expect((yield* call("GET", "/v2/audit-logs", { token: tenant.adminKey, tenant: tenant.id })).status).toBe(200)
        const bad = { token: "clk_not-a-key", tenant: tenant.id }
        const statuses = []
        for (let i = 0; i < 3; i++) statuses.push((yield* call("GET", "/v2/audit-logs", bad)).status)
        expect(statuses).toEqual([401, 401, 401])
        const v2 = yield* call("GET", "/v2/audit-logs", bad)
        expect(v2.status).toBe(429)
        expect(v2.body.code).toBe("rate_limited")
        expect(Number(v2.headers.get("retry-after"))).toBeGreaterThanOrEqual(1)
        const v1 = yield* call("GET", `/api/${tenant.id}/teams/x`, { token: "clk_not-a-key" })
        expect(v1.status).toBe(429)
        expect(v1.body).toEqual({ detail: "rate limit exceeded" })
        // Refused before the credential is looked up: a valid one waits as well, kept verification or not.
        expect((yield* call("GET", "/v2/audit-logs", { token: tenant.adminKey, tenant: tenant.id })).status).toBe(429)
        // Routes without credentials are not affected.
        expect((yield* call("GET", "/healthz")).status).toBe(200)
      }))
  })

  layer(makeTestServer({ authFailureLimit: POLICY }), { excludeTestServices: true })("X-Forwarded-For untrusted", (it) => {
    it.effect("by default X-Forwarded-For is ignored: changing it does not buy a new budget", () =>
      Effect.gen(function*() {
        const tenant = yield* seedTenant
        const statuses = []
        for (let i = 0; i < 5; i++) {
          statuses.push(
            (yield* call("GET", "/v2/audit-logs", { token: "clk_x", tenant: tenant.id, headers: { "x-forwarded-for": `10.0.0.${i}` } }))
              .status
          )
        }
        expect(statuses).toEqual([401, 401, 401, 429, 429])
      }))
  })

  layer(makeTestServer({ authFailureLimit: POLICY, trustedProxies: 1 }), { excludeTestServices: true })("one trusted proxy", (it) => {
    it.effect("behind a trusted proxy each forwarded client has its own budget", () =>
      Effect.gen(function*() {
        const tenant = yield* seedTenant
        const from = (address: string) =>
          call("GET", "/v2/audit-logs", { token: "clk_x", tenant: tenant.id, headers: { "x-forwarded-for": `203.0.113.9, ${address}` } })
            .pipe(Effect.map((reply) => reply.status))
        const first = []
        for (let i = 0; i < 4; i++) first.push(yield* from("198.51.100.1"))
        expect(first).toEqual([401, 401, 401, 429])
        expect(yield* from("198.51.100.2")).toBe(401)
      }))
  })
})
