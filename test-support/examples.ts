/**
 * What the examples' tests share: temporary files, a SQLite store with a tenant in it, a server
 * on a free port, and the checks every host application that mounts costline must pass.
 */
import type { Core } from "@costline/core"
import { SqliteStore } from "@costline/store-sqlite"
import type { Layer } from "effect"
import { mkdtempSync, rmSync } from "node:fs"
import type { Server } from "node:http"
import type { AddressInfo } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, expect, it } from "vitest"
import { demoTenant, type DemoTenant } from "../examples/shared/demoTenant.js"
import { COST_PREFIX, HOST_GREETING } from "../examples/shared/host.js"
import { checkDocsPage } from "./docsPage.js"

/** A directory removed after the test file; returns the path of a file in it by name. */
export const useTempDirectory = (): ((name: string) => string) => {
  const directory = mkdtempSync(join(tmpdir(), "costline-example-"))
  afterAll(() => rmSync(directory, { recursive: true, force: true }))
  return (name) => join(directory, name)
}

/**
 * A SQLite file removed after the test file: a file, not `:memory:`, because the tenant is made
 * on one connection and the API reads it on another, as `costline seed` and a server would.
 */
export const useSqliteStore = (): Layer.Layer<Core.Repositories, unknown> =>
  SqliteStore.layer({ filename: useTempDirectory()("costline.db") })

/** A tenant with an admin key, made before the file's tests; read it inside a test. */
export const useTenant = (store: Layer.Layer<Core.Repositories, unknown>): (() => DemoTenant) => {
  let tenant: DemoTenant | undefined
  beforeAll(async () => {
    tenant = await demoTenant(store, "example")
  })
  return () => tenant ?? expect.unreachable("the tenant is made before the tests")
}

/** Starts `server` on a free loopback port for the file's tests; closes it after them. */
export const useListening = (server: Server): (() => string) => {
  let origin = ""
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  })
  afterAll(() => new Promise((resolve) => server.close(resolve)))
  return () => origin
}

export type Fetch = (path: string, init?: RequestInit) => Response | Promise<Response>

/** A Fetch to the server `origin` names, read when a request is made. */
export const fetchFrom = (origin: () => string): Fetch => (path, init) => fetch(`${origin()}${path}`, init)

/** The behaviour every mounting example shows: the host's routes and costline's, side by side. */
export const hostAndCostlineTests = (request: Fetch, tenant: () => DemoTenant) => {
  const auth = () => ({ authorization: `Bearer ${tenant().apiKey}`, "x-tenant-id": tenant().organizationId })
  const postJson = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    Promise.resolve(request(path, { method: "POST", headers: { ...headers, "content-type": "application/json" }, body: JSON.stringify(body) }))

  it("serves the host's own routes, its body parsing intact", async () => {
    const hello = await request("/hello")
    expect(hello.status).toBe(200)
    expect(await hello.json()).toEqual(HOST_GREETING)
    const echo = await postJson("/echo", { budget: 42 })
    expect(await echo.json()).toEqual({ received: { budget: 42 } })
  })

  it("serves costline below the prefix", async () => {
    const reply = await request(`${COST_PREFIX}/v2/audit-logs`, { headers: auth() })
    expect(reply.status).toBe(200)
    expect(await reply.json()).toMatchObject({ items: expect.any(Array), row_count: expect.any(Number) })
  })

  it("reads request bodies in costline and links back below the prefix", async () => {
    const created = await postJson(`${COST_PREFIX}/v2/teams`, { name: "Platform" }, auth())
    expect(created.status).toBe(201)
    const location = created.headers.get("location") ?? ""
    expect(location.startsWith(`${COST_PREFIX}/v2/teams/`)).toBe(true)
    const read = await request(location, { headers: auth() })
    expect(await read.json()).toMatchObject({ name: "Platform" })
  })

  it("serves the docs page below the prefix: its files, both documents, their operations there too", async () => {
    await checkDocsPage(request, COST_PREFIX)
  })

  it("leaves paths outside the prefix to the host", async () => {
    const reply = await request("/v2/audit-logs", { headers: auth() })
    expect(reply.status).toBe(404)
    expect(reply.headers.get("content-type")).not.toContain("problem+json")
  })
}
