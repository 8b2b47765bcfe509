/**
 * `bench/served-ab.ts` end to end, on SQLite and as short as it goes: it prints one result per
 * scenario with a figure per side, and leaves nothing behind (its seeded store is disposed of,
 * as an embedded Postgres must be for the process to end).
 */
import { execFile } from "node:child_process"
import { mkdtempSync, readdirSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import { promisify } from "node:util"
import { describe, expect, it } from "vitest"

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..")

describe("served-ab", () => {
  it("measures each side and removes its seeded store", async () => {
    const scratch = mkdtempSync(join(tmpdir(), "served-ab-test-"))
    try {
      const { stdout } = await promisify(execFile)(
        join(ROOT, "node_modules", ".bin", "vite-node"),
        [join(ROOT, "bench", "served-ab.ts"), "--", "--scenarios", "insight_get", "--connections", "2", "--bursts", "1", "--burst-seconds", "1", "--warm-up-seconds", "0", "--side", "{}"],
        { cwd: ROOT, timeout: 240_000, env: { ...process.env, TMPDIR: scratch }, maxBuffer: 16 * 1024 * 1024 }
      )
      const result = JSON.parse(stdout.trim().split("\n").at(-1)!) as { scenario: string; median_cpu_us: ReadonlyArray<number> }
      expect(result.scenario).toBe("insight_get")
      expect(result.median_cpu_us).toHaveLength(1)
      expect(result.median_cpu_us[0]).toBeGreaterThan(0)
      expect(readdirSync(scratch).filter((name) => name.startsWith("costline-bench-"))).toEqual([])
    } finally {
      rmSync(scratch, { recursive: true, force: true })
    }
  }, 250_000)
})
