/**
 * A request's facts (`RequestFiber.RequestFacts`: its id, its tenant, the headers its handler
 * gave the answer) reach everything that reads them, whichever host made the request's context
 * and whether or not the request had a body (a body request is served in a context of its own):
 * the access log's entry, the audit record the request writes, the error body, the answer's ETag. Node hosts make the record with the context; the web handler's
 * context comes from the platform, and the pipeline adds one.
 */
import { AuditRepo, Core } from "@costline/core"
import { makeHandler, toWebHandler } from "@costline/http"
import { contractSecrets } from "@costline/store-contract"
import { SqliteStore } from "@costline/store-sqlite"
import { Effect, Layer } from "effect"
import { inject, type InjectOptions } from "light-my-request"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, describe, expect, it, vi } from "vitest"
import { upsertInsight } from "./support/Insights.js"
import { seedTenant } from "./support/TestServer.js"

const directory = mkdtempSync(join(tmpdir(), "costline-facts-"))
afterAll(() => rmSync(directory, { recursive: true, force: true }))

interface Sent {
  readonly method: string
  readonly url: string
  readonly headers: Record<string, string>
  readonly body?: string
}
type Send = (request: Sent) => Promise<{ readonly status: number; readonly body: string; readonly etag: string | null }>

/** Each host, serving the API over `filename`; `dispose` flushes its log. */
const hosts: ReadonlyArray<readonly [string, (filename: string) => { readonly send: Send; readonly dispose: () => Promise<void> }]> = [
  ["a node host (makeHandler)", (filename) => {
    const handler = makeHandler({ store: SqliteStore.layer({ filename }), secrets: contractSecrets, accessLog: true, rateLimit: false })
    return {
      send: async (request) => {
        const options: InjectOptions = { method: request.method as "GET", url: request.url, headers: request.headers, ...(request.body === undefined ? {} : { payload: request.body }) }
        const answer = await inject(handler, options)
        const etag = answer.headers.etag
        return { status: answer.statusCode, body: answer.payload, etag: typeof etag === "string" ? etag : null }
      },
      dispose: () => handler.dispose()
    }
  }],
  ["a fetch host (toWebHandler)", (filename) => {
    const handler = toWebHandler({ store: SqliteStore.layer({ filename }), secrets: contractSecrets, accessLog: true, rateLimit: false })
    return {
      send: async (request) => {
        const answer = await handler(new Request(`http://host.example${request.url}`, { method: request.method, headers: request.headers, ...(request.body === undefined ? {} : { body: request.body }) }))
        return { status: answer.status, body: await answer.text(), etag: answer.headers.get("etag") }
      },
      dispose: () => handler.dispose()
    }
  }]
]

describe.each(hosts)("on %s", (label, host) => {
  it("the request's id and tenant reach its access-log entry, its audit record and its error body, with a body or without", async () => {
    const filename = join(directory, `${label.replace(/\W+/g, "-")}.db`)
    const seeded = await Effect.gen(function*() {
      const tenant = yield* seedTenant
      const insight = yield* upsertInsight(tenant.id, "WH_FACTS")
      return { tenant, insight }
    }).pipe(Effect.provide(Core.layerWithSecrets.pipe(Layer.provide(SqliteStore.layer({ filename })), Layer.provide(contractSecrets))), Effect.runPromise)
    const auth = { authorization: `Bearer ${seeded.tenant.adminKey}`, "x-tenant-id": seeded.tenant.id }

    const written: Array<string> = []
    const spy = vi.spyOn(process.stdout, "write").mockImplementation((chunk: string | Uint8Array) => {
      written.push(String(chunk))
      return true
    })
    const served = host(filename)
    let replies: Array<{ readonly status: number; readonly body: string; readonly etag: string | null }>
    try {
      replies = [
        await served.send({ method: "GET", url: `/v2/insights/${seeded.insight.id}`, headers: { ...auth, "x-request-id": "facts-read" } }),
        await served.send({
          method: "PATCH",
          url: `/v2/insights/${seeded.insight.id}`,
          headers: { ...auth, "x-request-id": "facts-write", "content-type": "application/json", "if-match": seeded.insight.etag },
          body: JSON.stringify({ status: "resolved" })
        }),
        await served.send({
          method: "PATCH",
          url: `/v2/insights/${seeded.insight.id}`,
          headers: { ...auth, "x-request-id": "facts-stale", "content-type": "application/json", "if-match": "\"stale\"" },
          body: JSON.stringify({ status: "open" })
        })
      ]
    } finally {
      await served.dispose()
      spy.mockRestore()
    }
    expect(replies.map((reply) => reply.status)).toEqual([200, 200, 412])
    expect(JSON.parse(replies[2]!.body).request_id).toBe("facts-stale")
    // The headers the handler gave its answer (`Respond.setHeaders`, kept in the facts): the ETag
    // read, and the new one the write made, with a body or without.
    expect(replies[0]!.etag).toBe(seeded.insight.etag)
    expect(replies[1]!.etag).toBe(JSON.parse(replies[1]!.body).etag)
    expect(replies[1]!.etag).not.toBe(seeded.insight.etag)

    const entries = written.join("").split("\n").filter((line) => line.includes("\"request served\"")).map((line) => JSON.parse(line))
    const byId = Object.fromEntries(entries.map((entry) => [entry.annotations.request_id, entry.annotations]))
    for (const [id, method, status] of [["facts-read", "GET", 200], ["facts-write", "PATCH", 200], ["facts-stale", "PATCH", 412]] as const) {
      expect(byId[id], id).toMatchObject({ method, status, tenant: seeded.tenant.id, route: "/v2/insights/:insight_id" })
    }

    const records = await Effect.flatMap(AuditRepo.AuditRepo, (audit) =>
      audit.page({ organizationId: seeded.tenant.id, order: "asc", limit: 100, filters: {}, after: undefined })).pipe(
        Effect.provide(Core.layerWithSecrets.pipe(Layer.provideMerge(SqliteStore.layer({ filename })), Layer.provide(contractSecrets))),
        Effect.runPromise
      )
    expect(records.filter(({ record }) => record.request_id === "facts-write")).toHaveLength(1)
  })
})
