/**
 * The garbage collector's share of a served request, per server: each side's `costline serve`
 * (or any server taking `serve --database <url> --port <n>`, as `bench/served-ab.ts` takes them)
 * runs with V8's `--trace-gc-nvp` under a load burst; its young collections' pauses, the bytes
 * they promoted to the old generation and the full collections that followed are read from its
 * output and divided by the requests it answered. Promoted bytes per request is the figure that
 * found issue 19's interruptible region (~5 KB of every insight read's objects promoted);
 * unlike CPU time it hardly depends on the machine's other load.
 *
 *   npx vite-node bench/gc-promotion.ts -- --scenarios insight_get --side '{}' --side '{"costline":"bench/floor/core-min.mjs"}'
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join, resolve } from "node:path"
import { parseArgs } from "node:util"
import { between, summarize } from "./lib/GcTrace.js"
import { drive } from "./lib/Load.js"
import { ORGANIZATION, seed } from "./lib/Seed.js"
import { startServer } from "./lib/Servers.js"
import { parseSides, scenarioNamed, SIDE_OPTIONS } from "./lib/Sides.js"
import { postgresTarget, sqliteTarget } from "./lib/Stores.js"

const { values: flags } = parseArgs({
  args: process.argv.slice(2),
  options: {
    ...SIDE_OPTIONS,
    connections: { type: "string", default: "64" },
    seconds: { type: "string", default: "5" },
    "warm-up-seconds": { type: "string", default: "6" }
  }
})

const sides = parseSides(flags.side, ["{}"])
const target = flags.store === "postgres" ? await postgresTarget() : sqliteTarget()
const seeded = await seed(target, { auditRecords: 20_000, insights: 5_000, usageRecords: 0 })
const headers = { authorization: `Bearer ${seeded.token}`, "x-tenant-id": ORGANIZATION }
const probe = { path: "/v2/audit-logs?max_results=1", headers }
const directory = mkdtempSync(join(tmpdir(), "costline-gc-"))
try {
  for (const name of flags.scenarios.split(",")) {
    const scenario = scenarioNamed(name)
    for (const [index, side] of sides.entries()) {
      const output = join(directory, `${name}-${index}.log`)
      const server = await startServer("ours", {
        databaseUrl: target.url,
        probe,
        costline: side.costline === undefined ? undefined : resolve(side.costline),
        env: side.env,
        nodeFlags: ["--trace-gc-nvp"],
        stdoutFile: output
      })
      try {
        const plan = { connections: Number(flags.connections), request: scenario.requests({ store: target.kind, seeded, headers }) }
        await drive(server.origin, { ...plan, seconds: Number(flags["warm-up-seconds"]) })
        const before = summarize(readFileSync(output, "utf8"))
        const result = await drive(server.origin, { ...plan, seconds: Number(flags.seconds) })
        const gc = between(before, summarize(readFileSync(output, "utf8")))
        const perRequest = (value: number) => value / result.requests
        console.log(JSON.stringify({
          scenario: name,
          store: target.kind,
          side,
          requests: result.requests,
          scavenges: gc.scavenges,
          scavenge_pause_us_per_request: Number((1000 * perRequest(gc.scavengePauseMs)).toFixed(1)),
          promoted_bytes_per_request: Math.round(perRequest(gc.promotedBytes)),
          allocated_bytes_per_request: Math.round(perRequest(gc.allocatedBytes)),
          full_collections: gc.fullCollections,
          full_pause_us_per_request: Number((1000 * perRequest(gc.fullPauseMs)).toFixed(1))
        }))
      } finally {
        await server.stop()
      }
    }
  }
} finally {
  rmSync(directory, { recursive: true, force: true })
  await target.dispose()
}
