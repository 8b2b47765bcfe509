/**
 * `bench/gc-promotion.ts` reads a served process's collections from V8's `--trace-gc-nvp` lines:
 * the young collections' pauses and promoted bytes, the full collections, any other output
 * ignored; and a server started with the flag and a file for its output gives them.
 */
import { readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { between, summarize } from "../lib/GcTrace.js"
import { drive } from "../lib/Load.js"
import { ORGANIZATION, seed } from "../lib/Seed.js"
import { startServer } from "../lib/Servers.js"
import { sqliteTarget } from "../lib/Stores.js"

const OUTPUT = [
  "[1:0x1:0]      362 ms: pause=10.4 mutator=66.2 gc=mc reduce_memory=0 time_to_safepoint=0.00",
  "{\"message\":\"request served\",\"annotations\":{\"status\":200}}",
  "[1:0x1:0]      400 ms: pause=1.5 mutator=5.0 gc=s reduce_memory=0 allocated=4000000 promoted=120000 semi_space_copied=0",
  "[1:0x1:0]      420 ms: pause=0.5 mutator=5.0 gc=s reduce_memory=0 allocated=3000000 promoted=0 semi_space_copied=0",
  "[1:0x1:0]      500 ms: pause=4.0 mutator=70.0 gc=ms reduce_memory=0"
].join("\n")

describe("GcTrace", () => {
  it("sums young and full collections, their pauses, promoted and allocated bytes", () => {
    expect(summarize(OUTPUT)).toEqual({
      scavenges: 2,
      scavengePauseMs: 2,
      promotedBytes: 120_000,
      allocatedBytes: 7_000_000,
      fullCollections: 2,
      fullPauseMs: 14.4
    })
  })

  it("gives the collections between two readings of a growing output", () => {
    const lines = OUTPUT.split("\n")
    const first = summarize(lines.slice(0, 3).join("\n"))
    expect(between(first, summarize(OUTPUT))).toEqual({
      scavenges: 1,
      scavengePauseMs: 0.5,
      promotedBytes: 0,
      allocatedBytes: 3_000_000,
      fullCollections: 1,
      fullPauseMs: 4
    })
  })

  it("reads a served costline's collections from its output", async () => {
    const target = sqliteTarget()
    const output = join(tmpdir(), `costline-gc-trace-${process.pid}.log`)
    try {
      const seeded = await seed(target, { auditRecords: 10, insights: 20, usageRecords: 0 })
      const headers = { authorization: `Bearer ${seeded.token}`, "x-tenant-id": ORGANIZATION }
      const server = await startServer("ours", {
        databaseUrl: target.url,
        probe: { path: "/v2/audit-logs?max_results=1", headers },
        nodeFlags: ["--trace-gc-nvp"],
        stdoutFile: output
      })
      try {
        const result = await drive(server.origin, {
          connections: 4,
          seconds: 1,
          request: () => ({ method: "GET", path: `/v2/insights/${seeded.insightIds[0]}`, headers })
        })
        expect(result.requests).toBeGreaterThan(0)
      } finally {
        await server.stop()
      }
      const gc = summarize(readFileSync(output, "utf8"))
      // A second of reads under 4 MB young generations (the launcher's) collects many times.
      expect(gc.scavenges).toBeGreaterThan(0)
      expect(gc.scavengePauseMs).toBeGreaterThan(0)
      expect(gc.allocatedBytes).toBeGreaterThan(0)
    } finally {
      rmSync(output, { force: true })
      await target.dispose()
    }
  }, 60_000)
})
