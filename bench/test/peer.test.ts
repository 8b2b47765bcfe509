/**
 * The servers measured in the peer's column — the Fastify peer and the Effect floor — must
 * answer the insight reads exactly as the baseline does (and so as costline does, which the run
 * checks): same insight, same page, same page token. The floor runs the baseline's own routes,
 * so it answers every scenario's request as the baseline does; so does the floor taken through
 * costline's number of steps (`floor/runtime-steps.mjs`), on Effect 3 and on Effect 4.
 */
import { fileURLToPath } from "node:url"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { send } from "../lib/Answer.js"
import { ORGANIZATION, seed, type Seeded } from "../lib/Seed.js"
import { type RunningServer, startServer } from "../lib/Servers.js"
import { sqliteTarget, type StoreTarget } from "../lib/Stores.js"

let target: StoreTarget
let seeded: Seeded
let baseline: RunningServer
let peer: RunningServer
let floor: RunningServer
let stepsOn3: RunningServer
let stepsOn4: RunningServer
const RUNTIME_STEPS = fileURLToPath(new URL("../floor/runtime-steps.mjs", import.meta.url))
let headers: Record<string, string>

beforeAll(async () => {
  target = sqliteTarget()
  seeded = await seed(target, { auditRecords: 10, insights: 200, usageRecords: 0 })
  headers = { authorization: `Bearer ${seeded.token}`, "x-tenant-id": ORGANIZATION }
  const probe = { path: "/v2/insights?max_results=1", headers }
  baseline = await startServer("baseline", { databaseUrl: target.url, probe })
  peer = await startServer("peer", { databaseUrl: target.url, probe })
  floor = await startServer("floor", { databaseUrl: target.url, probe })
  // Started as `bench/served-ab.ts` starts it: in place of a costline build.
  const steps = (effect: string) =>
    startServer("ours", { databaseUrl: target.url, probe, costline: RUNTIME_STEPS, env: { FLOOR_EFFECT: effect, FLOOR_LAYERS: "5" } })
  stepsOn3 = await steps("3")
  stepsOn4 = await steps("4")
}, 120_000)

afterAll(async () => {
  await baseline?.stop()
  await peer?.stop()
  await floor?.stop()
  await stepsOn3?.stop()
  await stepsOn4?.stop()
  await target?.dispose()
})

describe.each([
  ["the Fastify peer", () => peer],
  ["the Effect floor", () => floor],
  ["the floor through 5 layers on Effect 3", () => stepsOn3],
  ["the floor through 5 layers on Effect 4", () => stepsOn4]
])("%s", (_name, server) => {
  it("answers an insight and a page of insights as the baseline does", async () => {
    for (const path of [`/v2/insights/${seeded.insightIds[3]}`, "/v2/insights?status__in=open&max_results=50"]) {
      const request = { method: "GET" as const, path, headers }
      const expected = await send(baseline.origin, request)
      expect(await send(server().origin, request)).toEqual(expected)
    }
    const page = await send(server().origin, { method: "GET", path: "/v2/insights?status__in=open&max_results=5", headers }) as any
    expect(page.items).toHaveLength(5)
    expect(typeof page.page_token).toBe("string")
  })

  it("refuses a request without a valid key, and its CPU time can be read", async () => {
    const response = await fetch(`${server().origin}/v2/insights/${seeded.insightIds[0]}`, { headers: { "x-tenant-id": ORGANIZATION } })
    expect(response.status).toBe(401)
    expect(server().cpuMicros()).toBeGreaterThan(0)
  })
})

describe("the Effect floor", () => {
  it("answers an audit page as the baseline does, and a route it lacks with the baseline's 404", async () => {
    const request = { method: "GET" as const, path: "/v2/audit-logs?max_results=5", headers }
    const page = await send(floor.origin, request) as any
    expect(page).toEqual(await send(baseline.origin, request))
    expect(page.items).toHaveLength(5)
    const [missing, expected] = await Promise.all([floor, baseline].map((server) => fetch(`${server.origin}/v2/nowhere`, { headers })))
    expect(missing!.status).toBe(404)
    expect(await missing!.json()).toEqual(await expected!.json())
  })
})
