/** `npm run bench -- --help` prints the options and every scenario, and runs nothing. */
import { execFile } from "node:child_process"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import { promisify } from "node:util"
import { describe, expect, it } from "vitest"

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..")

describe("bench --help", () => {
  it("lists the options and the scenarios and exits 0", async () => {
    const { stdout } = await promisify(execFile)(
      join(ROOT, "node_modules", ".bin", "vite-node"),
      [join(ROOT, "bench", "run.ts"), "--", "--help"],
      { cwd: ROOT, timeout: 120_000 }
    )
    expect(stdout).toContain("--scenarios a,b")
    expect(stdout).toContain("--peer fastify|floor")
    for (const name of ["audit_export", "insight_get", "insights_list", "insight_patch"]) expect(stdout).toContain(name)
  }, 130_000)
})
