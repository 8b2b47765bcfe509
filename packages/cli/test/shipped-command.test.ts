/**
 * The shipped `costline` command is the bundle (`dist/bundle/costline.mjs` and its chunks, and
 * `dist/bundle/serve.cjs` for `serve`), built apart from the sources the other projects test. Parts of it are loaded on first use, so they
 * are reached here through the command itself.
 */
import { spawn } from "node:child_process"
import { chmodSync, cpSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from "node:fs"
import { basename, dirname, join, relative } from "node:path"
import { crc32 } from "node:zlib"
// @ts-expect-error: the launcher is plain JavaScript, shipped as is.
import { isPrivate } from "../bin/warm-start.js"
import { describe, expect, it } from "vitest"
import { freePort } from "./network.js"
import { BIN, costline, costlineWith, lastLine, scratchDir, startServer, startServerWith, stop } from "./support.js"

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

  it("analyses a query on its worker thread (dist/bundle/sql-worker.mjs, with the SQL parser), answering probes meanwhile", { timeout: 120_000 }, async () => {
    const dir = scratchDir()
    const key = lastLine((await costline(dir, "seed", "--org", "acme")).stdout)
    const port = await freePort()
    const { child } = await startServer(dir, "--port", String(port))
    const analyze = (query_text: string) =>
      fetch(`http://127.0.0.1:${port}/v2/insights/actions/analyze-query`, {
        method: "POST",
        headers: { authorization: `Bearer ${key}`, "x-tenant-id": "acme", "content-type": "application/json" },
        body: JSON.stringify({ query_text })
      })
    try {
      const reply = await analyze("SELECT *\nFROM orders")
      expect(reply.status).toBe(200)
      const body = (await reply.json()) as { items: ReadonlyArray<{ insight_type: string }> }
      expect(body.items.map((finding) => finding.insight_type)).toContain("select_star")
      // ~97,000 characters of select list, about a second of parsing: the server's event loop
      // answers /healthz throughout (parsed on it, nothing after the first probe would be).
      let done = false
      const slow = analyze(`SELECT ${Array.from({ length: 13_500 }, (_, i) => `c${i}`).join(", ")} FROM t1, t2`).finally(() => (done = true))
      let answered = 0
      while (!done && answered < 10) {
        expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(200)
        answered++
      }
      expect(answered).toBe(10)
      // Stopped meanwhile, the server drains the analysis and exits: its worker thread holds nothing open.
      const [code, slowReply] = await Promise.all([stop(child), slow])
      expect(code).toBe(0)
      expect(slowReply.status).toBe(200)
    } finally {
      await stop(child)
    }
  })

  it("serves without the other commands and without the Postgres store: a server's start evaluates neither", { timeout: 120_000 }, async () => {
    const dir = scratchDir()
    const key = lastLine((await costline(dir, "seed", "--org", "acme")).stdout)
    // A copy of the command inside the package (its dependencies resolve as the original's), less
    // the chunk of the other commands and every chunk of the Postgres store; `serve` runs from its
    // own script, where the Postgres client's module now throws if it is ever evaluated.
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
      const script = join(copy, "dist", "bundle", "serve.cjs")
      const pgClient = "PgClient=GenericTag(\"@effect/sql-pg/PgClient\")"
      const text = readFileSync(script, "utf8")
      expect(text.split(pgClient)).toHaveLength(2)
      writeFileSync(script, text.replace(pgClient, "PgClient=(()=>{throw new Error(\"the Postgres store was evaluated\")})()"))
      const port = await freePort()
      // Its code cache goes with the copy (a cache file is per install path).
      const child = spawn(process.execPath, [join(copy, "bin", "costline.js"), "serve", "--port", String(port)], {
        cwd: dir,
        env: { ...process.env, NODE_COMPILE_CACHE: join(copy, "compile-cache") }
      })
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
        expect(output).not.toContain("the Postgres store was evaluated")
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

  describe("a server's code cache (V8's code for what a start ran, taken after the first answer)", () => {
    /** One start with NODE_DEBUG=costline: its report, and the status of a first request. */
    const serveOnce = async (dir: string, cacheDir: string) => {
      const port = await freePort()
      const { child, output } = await startServerWith({ NODE_COMPILE_CACHE: cacheDir, NODE_DEBUG: "costline" }, dir, "--port", String(port))
      try {
        const status = (await fetch(`http://127.0.0.1:${port}/healthz`)).status
        // The cache is written once the answer has gone out (or not at all): wait for either report.
        const deadline = Date.now() + 30_000
        while (/code cache (missing or unusable|rejected by V8)/.test(output()) && !/code cache (not )?written/.test(output())) {
          if (Date.now() > deadline) throw new Error(`no code cache written: ${output()}`)
          await new Promise((resolve) => setTimeout(resolve, 20))
        }
        return { status, report: output() }
      } finally {
        await stop(child)
      }
    }
    const cacheFileIn = (cacheDir: string) => {
      const files = readdirSync(cacheDir, { recursive: true, encoding: "utf8" }).filter((name) => name.includes("costline-serve") && name.endsWith(".cache"))
      expect(files).toHaveLength(1)
      return join(cacheDir, files[0]!)
    }

    it("is written after the first answer and used by the next start; a corrupt or foreign one is ignored and replaced", { timeout: 240_000 }, async () => {
      const dir = scratchDir()
      const cacheDir = join(scratchDir(), "compile-cache")
      const first = await serveOnce(dir, cacheDir)
      expect(first.status).toBe(200)
      expect(first.report).toContain("code cache missing or unusable")
      expect(first.report).toMatch(/code cache written: .*costline-serve/)
      const file = cacheFileIn(cacheDir)
      // Other installs' files, one untouched for 31 days and one for a day: the next write removes the first.
      const day = 24 * 60 * 60
      for (const [name, age] of [["stale.cache", 31 * day], ["recent.cache", day]] as const) {
        writeFileSync(join(dirname(file), name), name)
        utimesSync(join(dirname(file), name), Date.now() / 1000 - age, Date.now() / 1000 - age)
      }
      const written = readFileSync(file)

      const second = await serveOnce(dir, cacheDir)
      expect(second.status).toBe(200)
      expect(second.report).toContain(`code cache accepted: ${file}`)
      expect(second.report).not.toContain("code cache written")

      // A flipped byte in V8's data: the checksum fails, V8 is never offered it.
      const corrupt = Buffer.from(written)
      corrupt[corrupt.length - 100] = corrupt[corrupt.length - 100]! ^ 0xff
      writeFileSync(file, corrupt)
      const third = await serveOnce(dir, cacheDir)
      expect(third.status).toBe(200)
      expect(third.report).toContain("code cache missing or unusable")
      expect(third.report).toContain("code cache written")
      expect(readdirSync(dirname(file)).sort()).toEqual([basename(file), "recent.cache"].sort())
      const rewritten = await serveOnce(dir, cacheDir)
      expect(rewritten.status).toBe(200)
      expect(rewritten.report).toContain(`code cache accepted: ${file}`)

      // Intact, made from this script, but not V8's (another Node's, say): V8 rejects it.
      // The layout: a magic line, the script's hash (64 hex digits), the data's CRC-32, the data.
      const dataAt = written.indexOf("\n") + 1 + 64 + 4
      const foreign = Buffer.from(written)
      foreign.fill(7, dataAt)
      foreign.writeUInt32LE(crc32(foreign.subarray(dataAt)), dataAt - 4)
      writeFileSync(file, foreign)
      const fourth = await serveOnce(dir, cacheDir)
      expect(fourth.status).toBe(200)
      expect(fourth.report).toContain("code cache rejected by V8")
      expect(fourth.report).toContain("code cache written")

      // Garbage of any kind (here, the start of another file).
      writeFileSync(file, "not a cache")
      const fifth = await serveOnce(dir, cacheDir)
      expect(fifth.status).toBe(200)
      expect(fifth.report).toContain("code cache missing or unusable")
    })

    it("is read only from a directory and a file its own user alone can write", { timeout: 240_000 }, async () => {
      const dir = scratchDir()
      const cacheDir = join(scratchDir(), "compile-cache")
      const first = await serveOnce(dir, cacheDir)
      expect(first.status).toBe(200)
      const file = cacheFileIn(cacheDir)
      // Made private: the directory 0700, the file 0600.
      expect(statSync(dirname(file)).mode & 0o777).toBe(0o700)
      expect(statSync(file).mode & 0o777).toBe(0o600)

      // Writable by others (a valid cache, but anyone could have replaced it): not read, and
      // replaced by a private one.
      chmodSync(file, 0o666)
      const shared = await serveOnce(dir, cacheDir)
      expect(shared.status).toBe(200)
      expect(shared.report).toMatch(/code cache not trusted \(owner \d+, mode 666\)/)
      expect(shared.report).toContain("code cache missing or unusable")
      expect(shared.report).toContain("code cache written")
      expect(statSync(file).mode & 0o777).toBe(0o600)
      chmodSync(file, 0o620)
      expect((await serveOnce(dir, cacheDir)).report).toMatch(/code cache not trusted \(owner \d+, mode 620\)/)

      // A link in its place (to a valid cache elsewhere) is not followed.
      const elsewhere = join(scratchDir(), "elsewhere.cache")
      const valid = readFileSync(file)
      writeFileSync(elsewhere, valid, { mode: 0o600 })
      rmSync(file)
      symlinkSync(elsewhere, file)
      const linked = await serveOnce(dir, cacheDir)
      expect(linked.status).toBe(200)
      expect(linked.report).toContain("code cache missing or unusable")
      expect(linked.report).toContain("code cache written")
      // Written in the link's place, not through it.
      expect(lstatSync(file).isFile()).toBe(true)
      // (A boolean: a failed comparison of two 3 MB buffers would spend minutes on its diff.)
      expect(readFileSync(elsewhere).equals(valid)).toBe(true)
      expect((await serveOnce(dir, cacheDir)).report).toContain(`code cache accepted: ${file}`)

      // A directory left open to others (by an earlier version, or created so) is closed first.
      chmodSync(dirname(file), 0o777)
      const reopened = await serveOnce(dir, cacheDir)
      expect(reopened.report).toContain(`code cache accepted: ${file}`)
      expect(statSync(dirname(file)).mode & 0o777).toBe(0o700)

      // Not a directory (here, a link to one): no cache at all, and the server starts.
      // (Node's compile cache puts a directory per Node version between the two.)
      const other = join(scratchDir(), "compile-cache-2")
      const linkAt = join(other, relative(cacheDir, dirname(file)))
      mkdirSync(dirname(linkAt), { recursive: true })
      const target = join(scratchDir(), "somewhere")
      mkdirSync(target, { mode: 0o700 })
      symlinkSync(target, linkAt)
      const noDirectory = await serveOnce(dir, other)
      expect(noDirectory.status).toBe(200)
      expect(noDirectory.report).toContain("code cache directory not usable")
      expect(readdirSync(target)).toEqual([])
    })

    it("trusts only what its own user owns and alone can write", () => {
      expect(isPrivate({ uid: 1000, mode: 0o100600 }, 1000)).toBe(true)
      expect(isPrivate({ uid: 1000, mode: 0o100644 }, 1000)).toBe(true)
      expect(isPrivate({ uid: 1001, mode: 0o100600 }, 1000)).toBe(false)
      expect(isPrivate({ uid: 0, mode: 0o100600 }, 1000)).toBe(false)
      expect(isPrivate({ uid: 1000, mode: 0o100620 }, 1000)).toBe(false)
      expect(isPrivate({ uid: 1000, mode: 0o100602 }, 1000)).toBe(false)
      expect(isPrivate({ uid: 1000, mode: 0o040777 }, 1000)).toBe(false)
      // No uids (Windows, whose temporary directory is per user).
      expect(isPrivate({ uid: 0, mode: 0o100666 }, undefined)).toBe(true)
    })

    it("is kept per kind of store: a Postgres server's start does not use a SQLite server's", { timeout: 120_000 }, async () => {
      const dir = scratchDir()
      const cacheDir = join(scratchDir(), "compile-cache")
      const sqlite = await serveOnce(dir, cacheDir)
      expect(sqlite.status).toBe(200)
      const sqliteFile = cacheFileIn(cacheDir)
      // No Postgres listens there: the start fails after choosing its cache, and writes none.
      const postgres = await costlineWith(dir, { NODE_COMPILE_CACHE: cacheDir, NODE_DEBUG: "costline" }, "serve", "--database", `postgres://127.0.0.1:${await freePort()}/none`, "--port", "0")
      expect(postgres.code).toBe(1)
      expect(postgres.stderr).toMatch(/code cache missing or unusable: .*costline-serve/)
      expect(postgres.stderr).not.toContain(sqliteFile)
      expect(cacheFileIn(cacheDir)).toBe(sqliteFile)
    })

    it("is not kept with NODE_DISABLE_COMPILE_CACHE, and other commands keep Node's compile cache only", { timeout: 120_000 }, async () => {
      const dir = scratchDir()
      const cacheDir = join(scratchDir(), "compile-cache")
      const port = await freePort()
      const { child, output } = await startServerWith({ NODE_COMPILE_CACHE: cacheDir, NODE_DISABLE_COMPILE_CACHE: "1", NODE_DEBUG: "costline" }, dir, "--port", String(port))
      try {
        expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(200)
      } finally {
        await stop(child)
      }
      expect(output()).toContain("no code cache (compile cache disabled)")
      expect(existsSync(cacheDir)).toBe(false)
      const version = await costlineWith(dir, { NODE_COMPILE_CACHE: cacheDir, NODE_DEBUG: "costline" }, "--version")
      expect(version.code).toBe(0)
      expect(version.stderr).not.toContain("code cache")
      expect(readdirSync(cacheDir, { recursive: true, encoding: "utf8" }).some((name) => name.includes("costline-serve"))).toBe(false)
    })
  })
})
