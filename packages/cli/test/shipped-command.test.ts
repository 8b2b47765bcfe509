/**
 * The shipped `costline` command is the bundle (`dist/costline.mjs`), built apart from the
 * sources the other projects test. Parts of it are loaded on first use, so they are reached here
 * through the command itself.
 */
import { describe, expect, it } from "vitest"
import { freePort } from "./network.js"
import { existsSync, readdirSync } from "node:fs"
import { join } from "node:path"
import { costline, costlineWith, lastLine, scratchDir, startServer, stop } from "./support.js"

describe("the shipped command", () => {
  it("keeps V8's compiled code on disk between starts, unless NODE_DISABLE_COMPILE_CACHE is set", { timeout: 120_000 }, async () => {
    const tmp = scratchDir()
    const cache = join(tmp, "node-compile-cache")
    const off = await costlineWith(scratchDir(), { TMPDIR: tmp, NODE_DISABLE_COMPILE_CACHE: "1" }, "--version")
    expect(off.code).toBe(0)
    expect(existsSync(cache)).toBe(false)
    const on = await costlineWith(scratchDir(), { TMPDIR: tmp }, "--version")
    expect(on.code).toBe(0)
    expect(readdirSync(cache, { recursive: true }).length).toBeGreaterThan(0)
  })

  it("analyses a query: the SQL parser, loaded on first use, is found and works", { timeout: 120_000 }, async () => {
    const dir = scratchDir()
    const key = lastLine((await costline(dir, "seed", "--org", "acme")).stdout)
    const port = await freePort()
    const { child } = await startServer(dir, "--port", String(port))
    try {
      const reply = await fetch(`http://127.0.0.1:${port}/v2/insights/actions/analyze-query`, {
        method: "POST",
        headers: { authorization: `Bearer ${key}`, "x-tenant-id": "acme", "content-type": "application/json" },
        body: JSON.stringify({ query_text: "SELECT *\nFROM orders" })
      })
      expect(reply.status).toBe(200)
      const body = (await reply.json()) as { items: ReadonlyArray<{ insight_type: string }> }
      expect(body.items.map((finding) => finding.insight_type)).toContain("select_star")
    } finally {
      await stop(child)
    }
  })
})
