/**
 * The entry points for host applications: a node `(req, res)` handler and a fetch-style handler,
 * each over a SQLite file that a separate runtime seeds (as the CLI would), at the root and under
 * a base path.
 */
import { Core } from "@costline/core"
import { makeHandler, type NodeHandler, serve, toWebHandler } from "@costline/http"
import { SqliteStore } from "@costline/store-sqlite"
import { HttpServer } from "@effect/platform"
import { Effect, Exit, Layer, ManagedRuntime, Scope } from "effect"
import { mkdtempSync, rmSync } from "node:fs"
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { seedTenant } from "./support/TestServer.js"

const directory = mkdtempSync(join(tmpdir(), "costline-http-"))
const filename = join(directory, "costline.db")
const seeding = ManagedRuntime.make(Core.layer.pipe(Layer.provide(SqliteStore.layer({ filename }))))
let tenant: { readonly id: string; readonly adminKey: string }

beforeAll(async () => {
  tenant = await seeding.runPromise(seedTenant)
})

afterAll(async () => {
  await seeding.dispose()
  rmSync(directory, { recursive: true, force: true })
})

const auth = () => ({ authorization: `Bearer ${tenant.adminKey}`, "x-tenant-id": tenant.id })

describe("toWebHandler", () => {
  const handler = toWebHandler({ store: SqliteStore.layer({ filename }), maxBodyBytes: 1000 })
  afterAll(() => handler.dispose())

  it("serves the API to fetch-style hosts", async () => {
    const reply = await handler(new Request("http://host.example/v2/audit-logs", { headers: auth() }))
    expect(reply.status).toBe(200)
    expect(reply.headers.get("cache-control")).toBe("no-store")
    expect(((await reply.json()) as { row_count: number }).row_count).toBeGreaterThan(0)
  })

  it("renders errors through the same pipeline", async () => {
    const reply = await handler(new Request("http://host.example/v2/audit-logs", { method: "PATCH" }))
    expect(reply.status).toBe(405)
    expect(reply.headers.get("allow")).toBe("GET, HEAD")
    expect(reply.headers.get("content-type")).toBe("application/problem+json")
  })

  it("reads bodies like the node server: empty is missing, garbage is malformed", async () => {
    const post = (body: string) =>
      handler(
        new Request(`http://host.example/api/${tenant.id}/teams`, {
          method: "POST",
          headers: { ...auth(), "content-type": "application/json" },
          body
        })
      )
    const empty = await post("")
    expect(empty.status).toBe(422)
    expect(await empty.json()).toMatchObject({ detail: [{ type: "missing", loc: ["body"] }] })
    const garbage = await post("{")
    expect(garbage.status).toBe(400)
    const created = await post(JSON.stringify({ name: "From the edge" }))
    expect(created.status).toBe(200)
  })

  it("holds a body of unannounced length to the limit", async () => {
    const post = (size: number) =>
      handler(
        new Request("http://host.example/v2/insights/actions/analyze-query", {
          method: "POST",
          headers: { ...auth(), "content-type": "application/json" },
          // Padded in the SQL: a body member the operation does not declare would be refused.
          body: JSON.stringify({ query_text: `SELECT 1 -- ${"x".repeat(size)}` })
        })
      )
    expect((await post(2000)).status).toBe(413)
    expect((await post(500)).status).toBe(200)
  })

  it("holds it to its route's limit: the ingestion route takes more than the API-wide limit", async () => {
    const reply = await handler(
      new Request("http://host.example/v2/dw-ingestions", {
        method: "POST",
        headers: { ...auth(), "content-type": "application/json" },
        body: JSON.stringify({ metering: "x".repeat(2000) })
      })
    )
    expect(reply.status).toBe(422)
    // The body was read whole and its members checked (not refused, nor emptied as too long).
    const fields = ((await reply.json()) as { details: Array<{ field: string }> }).details.map(({ field }) => field)
    expect(fields).toContain("body.metering")
  })
})

/** Serves `handler` from a node:http server during the describe's tests; reads its origin. */
const listening = (handler: NodeHandler): (() => string) => {
  const server = createServer(handler)
  let origin = ""
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  })
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve))
    await handler.dispose()
  })
  return () => origin
}

describe("makeHandler", () => {
  const base = listening(makeHandler({ store: SqliteStore.layer({ filename }) }))

  it("serves the API inside a plain node:http server", async () => {
    const reply = await fetch(`${base()}/v2/teams`, {
      method: "POST",
      headers: { ...auth(), "content-type": "application/json", "x-request-id": "host-1" },
      body: JSON.stringify({ name: "Hosted" })
    })
    expect(reply.status).toBe(201)
    expect(reply.headers.get("x-request-id")).toBe("host-1")
    expect(reply.headers.get("location")).toMatch(/^\/v2\/teams\/[0-9a-f-]{36}$/)
  })

  it("answers 503 when the store cannot be opened", async () => {
    const broken = makeHandler({ store: SqliteStore.layer({ filename: join(directory, "missing", "dir", "db") }) })
    const brokenServer = createServer(broken)
    await new Promise<void>((resolve) => brokenServer.listen(0, "127.0.0.1", resolve))
    try {
      const reply = await fetch(`http://127.0.0.1:${(brokenServer.address() as AddressInfo).port}/v2/audit-logs`, {
        headers: { "x-request-id": "down-1" }
      })
      expect(reply.status).toBe(503)
      expect(reply.headers.get("content-type")).toBe("application/problem+json")
      expect(reply.headers.get("x-request-id")).toBe("down-1")
      expect(await reply.json()).toMatchObject({ code: "unavailable", status: 503, request_id: "down-1" })
    } finally {
      await new Promise((resolve) => brokenServer.close(resolve))
      await broken.dispose()
    }
  })
})

describe("serve", () => {
  it("listens while its scope is open and stops listening when it closes", async () => {
    const scope = Effect.runSync(Scope.make())
    const context = await Effect.runPromise(
      Layer.buildWithScope(serve({ port: 0, store: SqliteStore.layer({ filename }), accessLog: false }), scope)
    )
    const address = Effect.runSync(HttpServer.HttpServer.pipe(Effect.provide(context))).address
    const url = `http://127.0.0.1:${address._tag === "TcpAddress" ? address.port : 0}/v2/audit-logs`
    const open = await fetch(url, { headers: auth() })
    expect(open.status).toBe(200)
    await open.text()

    await Effect.runPromise(Scope.close(scope, Exit.void))
    await expect(fetch(url, { headers: auth() })).rejects.toThrow()
  })
})

describe("makeHandler with a base path", () => {
  const origin = listening(makeHandler({ store: SqliteStore.layer({ filename }), basePath: "/cost/" }))

  it("serves the API below the prefix, with a Location that leads back to it", async () => {
    const created = await fetch(`${origin()}/cost/v2/teams`, {
      method: "POST",
      headers: { ...auth(), "content-type": "application/json" },
      body: JSON.stringify({ name: "Mounted" })
    })
    expect(created.status).toBe(201)
    const location = created.headers.get("location")
    expect(location).toMatch(/^\/cost\/v2\/teams\/[0-9a-f-]{36}$/)

    const read = await fetch(`${origin()}${location}`, { headers: auth() })
    expect(read.status).toBe(200)
    expect(await read.json()).toMatchObject({ name: "Mounted" })
  })

  it("points v1 callers at the successor route below the prefix", async () => {
    const created = await fetch(`${origin()}/cost/api/${tenant.id}/teams`, {
      method: "POST",
      headers: { ...auth(), "content-type": "application/json" },
      body: JSON.stringify({ name: "Mounted v1" })
    })
    expect(created.status).toBe(200)
    expect(created.headers.get("link")).toBe("</cost/v2/teams>; rel=\"successor-version\"")
  })

  it("answers 404 in the v2 shape to what the host passes on from outside the prefix", async () => {
    const reply = await fetch(`${origin()}/v2/audit-logs`, { headers: { ...auth(), "x-request-id": "outside-1" } })
    expect(reply.status).toBe(404)
    expect(reply.headers.get("content-type")).toBe("application/problem+json")
    expect(reply.headers.get("x-request-id")).toBe("outside-1")
    expect(await reply.json()).toMatchObject({ code: "not_found", request_id: "outside-1" })
  })
})

describe("toWebHandler with a base path", () => {
  const handler = toWebHandler({ store: SqliteStore.layer({ filename }), basePath: "/tools/cost" })
  afterAll(() => handler.dispose())

  it("serves the API below the prefix", async () => {
    const reply = await handler(new Request("http://host.example/tools/cost/v2/audit-logs?max_results=1", { headers: auth() }))
    expect(reply.status).toBe(200)
    expect(await reply.json()).toMatchObject({ row_count: 1 })
  })

  it("puts the prefix on Location", async () => {
    const reply = await handler(
      new Request("http://host.example/tools/cost/v2/teams", {
        method: "POST",
        headers: { ...auth(), "content-type": "application/json" },
        body: JSON.stringify({ name: "On the edge" })
      })
    )
    expect(reply.status).toBe(201)
    expect(reply.headers.get("location")).toMatch(/^\/tools\/cost\/v2\/teams\/[0-9a-f-]{36}$/)
  })

  it("answers 404 outside the prefix", async () => {
    const reply = await handler(new Request("http://host.example/tools/costs/v2/audit-logs", { headers: auth() }))
    expect(reply.status).toBe(404)
    expect(await reply.json()).toMatchObject({ code: "not_found" })
  })
})
