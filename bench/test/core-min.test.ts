/**
 * The least costline server (`floor/core-min.mjs`: costline's core and store behind the thinnest
 * HTTP) is a bound on costline's own request only while it does costline's work: it must answer
 * the insight read and the list pages with costline's bodies and ETag, read through the verified
 * keys, and refuse what costline refuses. The baseline, started as `bench/served-ab.ts` starts a
 * side (`serve --database … --port …`), answers too.
 */
import { fileURLToPath } from "node:url"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { ORGANIZATION, seed, type Seeded } from "../lib/Seed.js"
import { type RunningServer, startServer } from "../lib/Servers.js"
import { sqliteTarget, type StoreTarget } from "../lib/Stores.js"

let target: StoreTarget
let seeded: Seeded
let costline: RunningServer
let coreMin: RunningServer
let baseline: RunningServer
let headers: Record<string, string>
const CORE_MIN = fileURLToPath(new URL("../floor/core-min.mjs", import.meta.url))
const BASELINE = fileURLToPath(new URL("../baseline/server.mjs", import.meta.url))

beforeAll(async () => {
  target = sqliteTarget()
  seeded = await seed(target, { auditRecords: 10, insights: 120, usageRecords: 0 })
  headers = { authorization: `Bearer ${seeded.token}`, "x-tenant-id": ORGANIZATION }
  const probe = { path: "/v2/audit-logs?max_results=1", headers }
  costline = await startServer("ours", { databaseUrl: target.url, probe })
  coreMin = await startServer("ours", { databaseUrl: target.url, probe, costline: CORE_MIN })
  baseline = await startServer("ours", { databaseUrl: target.url, probe, costline: BASELINE })
}, 120_000)

afterAll(async () => {
  await costline?.stop()
  await coreMin?.stop()
  await baseline?.stop()
  await target?.dispose()
})

const answer = async (server: RunningServer, path: string, given: Record<string, string> = headers) => {
  const response = await fetch(`${server.origin}${path}`, { headers: given })
  return { status: response.status, etag: response.headers.get("etag"), body: await response.text() }
}

describe("the least costline server", () => {
  it("answers insights and pages with costline's bodies and ETags", async () => {
    const paths = [
      ...seeded.insightIds.slice(0, 3).map((id) => `/v2/insights/${id}`),
      "/v2/insights?status__in=open&max_results=50",
      "/v2/insights?max_results=7&sort_order=asc&sort_by=update_time"
    ]
    for (const path of paths) {
      const expected = await answer(costline, path)
      expect(expected.status).toBe(200)
      expect(await answer(coreMin, path)).toEqual(expected)
    }
  })

  it("refuses a missing key, another tenant and an unknown insight as costline does", async () => {
    const path = `/v2/insights/${seeded.insightIds[0]}`
    const cases: Array<[string, Record<string, string>]> = [
      [path, { "x-tenant-id": ORGANIZATION }],
      [path, { ...headers, "x-tenant-id": "another-organization" }],
      ["/v2/insights/00000000-0000-4000-8000-000000000000", headers]
    ]
    for (const [at, given] of cases) {
      expect((await answer(coreMin, at, given)).status).toBe((await answer(costline, at, given)).status)
    }
  })

  it("is measured like a costline build, and so is the baseline started in its place", async () => {
    expect((await answer(baseline, `/v2/insights/${seeded.insightIds[1]}`)).body)
      .toEqual((await answer(coreMin, `/v2/insights/${seeded.insightIds[1]}`)).body)
    expect(coreMin.cpuMicros()).toBeGreaterThan(0)
    expect(baseline.cpuMicros()).toBeGreaterThan(0)
  })
})
