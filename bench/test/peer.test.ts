/**
 * The Fastify peer must answer the insight reads exactly as the baseline does (and so as
 * costline does, which the run checks): same insight, same page, same page token.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { send } from "../lib/Answer.js"
import { ORGANIZATION, seed, type Seeded } from "../lib/Seed.js"
import { type RunningServer, startServer } from "../lib/Servers.js"
import { sqliteTarget, type StoreTarget } from "../lib/Stores.js"

let target: StoreTarget
let seeded: Seeded
let baseline: RunningServer
let peer: RunningServer
let headers: Record<string, string>

beforeAll(async () => {
  target = sqliteTarget()
  seeded = await seed(target, { auditRecords: 10, insights: 200, usageRecords: 0 })
  headers = { authorization: `Bearer ${seeded.token}`, "x-tenant-id": ORGANIZATION }
  const probe = { path: "/v2/insights?max_results=1", headers }
  baseline = await startServer("baseline", { databaseUrl: target.url, probe })
  peer = await startServer("peer", { databaseUrl: target.url, probe })
}, 120_000)

afterAll(async () => {
  await baseline?.stop()
  await peer?.stop()
  await target?.dispose()
})

describe("the Fastify peer", () => {
  it("answers an insight and a page of insights as the baseline does", async () => {
    for (const path of [`/v2/insights/${seeded.insightIds[3]}`, "/v2/insights?status__in=open&max_results=50"]) {
      const request = { method: "GET" as const, path, headers }
      const expected = await send(baseline.origin, request)
      expect(await send(peer.origin, request)).toEqual(expected)
    }
    const page = await send(peer.origin, { method: "GET", path: "/v2/insights?status__in=open&max_results=5", headers }) as any
    expect(page.items).toHaveLength(5)
    expect(typeof page.page_token).toBe("string")
  })

  it("refuses a request without a valid key, and its CPU time can be read", async () => {
    const response = await fetch(`${peer.origin}/v2/insights/${seeded.insightIds[0]}`, { headers: { "x-tenant-id": ORGANIZATION } })
    expect(response.status).toBe(401)
    expect(peer.cpuMicros()).toBeGreaterThan(0)
  })
})
