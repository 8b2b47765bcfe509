/**
 * The edges of a request, through the real server: how deeply a body may nest, which content
 * types a body may have, the one spelling of each route's path, bodies streamed over the limit,
 * slow headers, and failed authentication per client address.
 */
import { CostlineApi, MAX_JSON_DEPTH } from "@costline/http"
import { layer } from "@effect/vitest"
import { Effect, Option } from "effect"
import { connect } from "node:net"
import { describe, expect } from "vitest"
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
