/**
 * The HTTP edge through the real server: the read timeout (408), CORS (off by default,
 * configurable) and the health probes.
 */
import { Errors, StoreHealth } from "@costline/core"
import { SqliteStore } from "@costline/store-sqlite"
import { layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { mkdtempSync, rmSync } from "node:fs"
import { connect } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, describe, expect } from "vitest"
import { baseUrl, call, makeTestServer, seedTenant } from "./support/TestServer.js"

/**
 * Sends a request whose body stops short of its Content-Length, and returns everything the
 * server writes until it closes the connection.
 */
const stalledRequest = (head: ReadonlyArray<string>, partialBody: string, framing: "length" | "chunked" = "length") =>
  Effect.flatMap(baseUrl, (base) =>
    Effect.async<string>((resume) => {
      const { hostname, port } = new URL(base)
      const socket = connect(Number(port), hostname, () => {
        socket.write(
          framing === "length"
            ? [...head, `content-length: ${partialBody.length + 100}`, "", partialBody].join("\r\n")
            // A first chunk, and no more (no last chunk).
            : [...head, "transfer-encoding: chunked", "", `${partialBody.length.toString(16)}\r\n${partialBody}\r\n`].join("\r\n")
        )
      })
      let received = ""
      socket.on("data", (chunk) => (received += chunk.toString()))
      socket.on("close", () => resume(Effect.succeed(received)))
    }))

describe("read timeout", () => {
  layer(makeTestServer({ readTimeout: "200 millis" }), { excludeTestServices: true })((it) => {
    // The chunked one too: its read is not left to run past the timeout.
    it.effect.each([["with a Content-Length", "length"], ["chunked", "chunked"]] as const)(
      "a body that stops arriving (%s) is answered 408 and the connection is closed",
      ([, encoding]) =>
        Effect.gen(function*() {
          const tenant = yield* seedTenant
          const answer = yield* stalledRequest([
            "POST /v2/teams HTTP/1.1",
            "host: localhost",
            "content-type: application/json",
            `authorization: Bearer ${tenant.adminKey}`,
            `x-tenant-id: ${tenant.id}`
          ], "{\"name\":", encoding)
          expect(answer).toMatch(/^HTTP\/1\.1 408 /)
          expect(answer.toLowerCase()).toContain("connection: close")
          expect(answer).toContain("\"code\":\"request_timeout\"")
        })
    )

    it.effect("in v1 too, as a FastAPI detail", () =>
      Effect.gen(function*() {
        const answer = yield* stalledRequest([
          "POST /api/some-org/teams HTTP/1.1",
          "host: localhost",
          "content-type: application/json"
        ], "{")
        expect(answer).toMatch(/^HTTP\/1\.1 408 /)
        expect(answer).toContain("{\"detail\":\"the request body did not arrive within 0.2 seconds\"}")
      }))

    it.effect("a body that arrives in time is served as usual", () =>
      Effect.gen(function*() {
        const tenant = yield* seedTenant
        const reply = yield* call("POST", "/v2/teams", { token: tenant.adminKey, tenant: tenant.id, json: { name: "On time" } })
        expect(reply.status).toBe(201)
      }))
  })
})

const ORIGIN = "https://app.example.com"

const preflight = (path: string, origin: string) =>
  call("OPTIONS", path, {
    headers: { origin, "access-control-request-method": "POST", "access-control-request-headers": "authorization" }
  })

describe("CORS", () => {
  layer(makeTestServer(), { excludeTestServices: true })("off by default", (it) => {
    it.effect("sends no CORS headers and answers no preflight", () =>
      Effect.gen(function*() {
        const reply = yield* call("GET", "/v2/audit-logs", { headers: { origin: ORIGIN } })
        expect(reply.headers.get("access-control-allow-origin")).toBeNull()
        const answer = yield* preflight("/v2/teams", ORIGIN)
        expect(answer.status).toBe(405)
        expect(answer.headers.get("access-control-allow-origin")).toBeNull()
      }))
  })

  layer(makeTestServer({ cors: { origins: [ORIGIN], maxAgeSeconds: 60 } }), { excludeTestServices: true })(
    "with listed origins",
    (it) => {
      it.effect("answers a preflight with the methods the path serves and the headers the API reads", () =>
        Effect.gen(function*() {
          const answer = yield* preflight("/v2/teams", ORIGIN)
          expect(answer.status).toBe(204)
          expect(answer.headers.get("access-control-allow-origin")).toBe(ORIGIN)
          expect(answer.headers.get("vary")).toBe("Origin")
          expect(answer.headers.get("access-control-allow-methods")).toBe("POST")
          expect(answer.headers.get("access-control-allow-headers")).toContain("x-tenant-id")
          expect(answer.headers.get("access-control-max-age")).toBe("60")
        }))

      it.effect("lets the page read responses, errors included, and the API's own headers", () =>
        Effect.gen(function*() {
          const reply = yield* call("GET", "/v2/audit-logs", { headers: { origin: ORIGIN } })
          expect(reply.status).toBe(401)
          expect(reply.headers.get("access-control-allow-origin")).toBe(ORIGIN)
          expect(reply.headers.get("access-control-expose-headers")).toContain("ratelimit")
          expect(reply.headers.get("access-control-expose-headers")).toContain("x-request-id")
        }))

      it.effect("gives other origins nothing", () =>
        Effect.gen(function*() {
          const reply = yield* call("GET", "/v2/audit-logs", { headers: { origin: "https://evil.example" } })
          expect(reply.headers.get("access-control-allow-origin")).toBeNull()
          expect((yield* preflight("/v2/teams", "https://evil.example")).status).toBe(405)
        }))

      it.effect("a preflight for a path the API does not serve is its 404", () =>
        Effect.gen(function*() {
          expect((yield* preflight("/v2/nowhere", ORIGIN)).status).toBe(404)
        }))
    }
  )
})

describe("health probes", () => {
  layer(makeTestServer(), { excludeTestServices: true })("over a migrated store", (it) => {
    it.effect("/healthz and /readyz are 200 without credentials", () =>
      Effect.gen(function*() {
        const live = yield* call("GET", "/healthz")
        expect(live.status).toBe(200)
        expect(live.body).toEqual({ status: "ok" })
        const ready = yield* call("GET", "/readyz")
        expect(ready.status).toBe(200)
        expect(ready.body).toEqual({ status: "ready" })
        expect(ready.headers.get("cache-control")).toBe("no-store")
      }))

    it.effect("only read", () =>
      Effect.gen(function*() {
        const reply = yield* call("DELETE", "/healthz")
        expect(reply.status).toBe(405)
        expect(reply.headers.get("allow")).toBe("GET, HEAD")
        expect((yield* call("HEAD", "/readyz")).status).toBe(200)
      }))
  })

  const directory = mkdtempSync(join(tmpdir(), "costline-readyz-"))
  afterAll(() => rmSync(directory, { recursive: true, force: true }))
  const unmigrated = SqliteStore.layer({ filename: join(directory, "fresh.db"), migrate: false })
  layer(makeTestServer({ store: unmigrated }), { excludeTestServices: true })("over a store not migrated yet", (it) => {
    it.effect("/readyz is 503 and names the pending migrations; /healthz stays 200", () =>
      Effect.gen(function*() {
        const ready = yield* call("GET", "/readyz")
        expect(ready.status).toBe(503)
        expect(ready.headers.get("retry-after")).toBe("1")
        expect(ready.body.status).toBe("migrations_pending")
        expect(ready.body.pending_migrations).toContain("0001_initial")
        expect((yield* call("GET", "/healthz")).status).toBe(200)
      }))
  })

  const unreachable = Layer.merge(
    SqliteStore.layer({ filename: ":memory:" }),
    Layer.succeed(StoreHealth.StoreHealth, { check: Effect.fail(new Errors.StoreUnavailable({ message: "connection refused" })) })
  )
  const hanging = Layer.merge(
    SqliteStore.layer({ filename: ":memory:" }),
    Layer.succeed(StoreHealth.StoreHealth, { check: Effect.never })
  )
  layer(makeTestServer({ store: hanging }), { excludeTestServices: true })("over a store whose check never answers", (it) => {
    it.effect("/readyz is 503 at its deadline (5 s), and /version answers without the store", () =>
      Effect.gen(function*() {
        const ready = yield* call("GET", "/readyz")
        expect(ready.status).toBe(503)
        expect(ready.body).toEqual({ status: "unavailable" })
        const version = yield* call("GET", "/version")
        expect(version.status).toBe(200)
        expect(version.body).toMatchObject({ store: null, migrations: null })
      }))
  })

  layer(makeTestServer({ store: unreachable }), { excludeTestServices: true })("over a store that cannot be reached", (it) => {
    it.effect("/readyz is 503 without naming the cause", () =>
      Effect.gen(function*() {
        const ready = yield* call("GET", "/readyz")
        expect(ready.status).toBe(503)
        expect(ready.body).toEqual({ status: "unavailable" })
      }))
  })
})
