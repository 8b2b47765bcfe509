/**
 * The shipped `costline` command is the bundle (`dist/bundle/costline.mjs` and its chunks), built
 * apart from the sources the other projects test. Parts of it are loaded on first use, so they
 * are reached here through the command itself.
 */
import { spawn } from "node:child_process"
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs"
import { dirname, join } from "node:path"
import { describe, expect, it } from "vitest"
import { freePort } from "./network.js"
import { BIN, costline, costlineWith, lastLine, scratchDir, startServer, stop } from "./support.js"

const CLI = dirname(dirname(BIN))

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

  it("serves without the other commands and without the Postgres store: a server's start loads neither", { timeout: 120_000 }, async () => {
    const dir = scratchDir()
    const key = lastLine((await costline(dir, "seed", "--org", "acme")).stdout)
    // A copy of the command inside the package (its dependencies resolve as the original's), less
    // the chunk of the other commands and every chunk of the Postgres store.
    const copy = mkdtempSync(join(CLI, "dist", "split-test-"))
    try {
      cpSync(join(CLI, "bin"), join(copy, "bin"), { recursive: true })
      cpSync(join(CLI, "dist", "bundle"), join(copy, "dist", "bundle"), { recursive: true })
      const chunks = join(copy, "dist", "bundle", "chunks")
      const dropped = readdirSync(chunks).filter((name) =>
        name.startsWith("Cli-") || readFileSync(join(chunks, name), "utf8").includes("@effect/sql-pg/PgClient")
      )
      expect(dropped.filter((name) => name.startsWith("Cli-"))).toHaveLength(1)
      expect(dropped.length).toBeGreaterThanOrEqual(2)
      for (const name of dropped) rmSync(join(chunks, name))
      const port = await freePort()
      const child = spawn(process.execPath, [join(copy, "bin", "costline.js"), "serve", "--port", String(port)], { cwd: dir })
      let output = ""
      child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()))
      child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()))
      try {
        const deadline = Date.now() + 90_000
        while (!output.includes("costline listening on")) {
          if (child.exitCode !== null || Date.now() > deadline) throw new Error(`serve did not start: ${output}`)
          await new Promise((resolve) => child.stdout.once("data", resolve).once("close", resolve))
        }
        const reply = await fetch(`http://127.0.0.1:${port}/v2/audit-logs`, {
          headers: { authorization: `Bearer ${key}`, "x-tenant-id": "acme" }
        })
        expect(reply.status).toBe(200)
      } finally {
        await stop(child)
      }
      // The copy's other commands are gone with their chunk; the shipped command still has them.
      expect((await new Promise<number | null>((resolve) =>
        spawn(process.execPath, [join(copy, "bin", "costline.js"), "orgs", "list"], { cwd: dir }).once("exit", resolve)
      ))).not.toBe(0)
      const listed = await costline(dir, "orgs", "list")
      expect(listed.code).toBe(0)
      expect(listed.stdout).toContain("acme")
    } finally {
      rmSync(copy, { recursive: true, force: true })
    }
  })
})
