/** The master-key check, rotation with `costline secrets reseal`, where the development key lives, file modes. */
import { testKey } from "@costline/store-contract"
import { execFile } from "node:child_process"
import { existsSync, mkdirSync, statSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { freePort } from "./network.js"
import { BIN, costline, lastLine, type RunResult, scratchDir, startServerWith, stop } from "./support.js"

/** `costline` with extra environment variables (and none of the caller's COSTLINE_* ones). */
const costlineWith = (cwd: string, env: Record<string, string>, ...args: Array<string>) =>
  new Promise<RunResult>((resolve) => {
    const inherited = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith("COSTLINE_")))
    execFile(process.execPath, [BIN, ...args], { cwd, env: { ...inherited, ...env } }, (error, stdout, stderr) => {
      resolve({ code: error === null ? 0 : typeof error.code === "number" ? error.code : 1, stdout, stderr })
    })
  })

const masterKey = (fill: number) => Buffer.alloc(32, fill).toString("base64")
const OLD = masterKey(1)
const NEW = masterKey(2)

const expectOneLineRefusal = (result: RunResult, text: string) => {
  expect(result.code).toBe(1)
  const lines = result.stderr.trim().split("\n")
  expect(lines).toHaveLength(1)
  expect(lines[0]).toMatch(/^costline: /)
  expect(lines[0]).toContain(text)
  expect(result.stdout).not.toContain("listening")
}

describe("the master key check", () => {
  it("a different COSTLINE_SECRET_KEY than the one first used is refused with one line, exit 1, by serve and by the CLI", async () => {
    const dir = scratchDir()
    await costline(dir, "seed", "--org", "acme")
    const first = await costlineWith(dir, { COSTLINE_SECRET_KEY: OLD }, "dw-accounts", "create", "--org", "acme", "--name", "Prod")
    expect(first.code).toBe(0)

    const wrong = { COSTLINE_SECRET_KEY: masterKey(9) }
    const created = await costlineWith(dir, wrong, "dw-accounts", "create", "--org", "acme", "--name", "Other")
    expectOneLineRefusal(created, "the configured master key 'default' is not the one that sealed this database's secrets")
    const served = await costlineWith(dir, wrong, "serve", "--port", String(await freePort()))
    expectOneLineRefusal(served, "the configured master key 'default' is not the one")
    const resealed = await costlineWith(dir, wrong, "secrets", "reseal")
    expectOneLineRefusal(resealed, "is not the one")

    const again = await costlineWith(dir, { COSTLINE_SECRET_KEY: OLD }, "dw-accounts", "create", "--org", "acme", "--name", "Staging")
    expect(again.code).toBe(0)
  })

  it("rotation: old + new key, reseal, then the new key alone serves the credentials and the old one alone is refused", async () => {
    const dir = scratchDir()
    const token = lastLine((await costline(dir, "seed", "--org", "acme")).stdout)
    const id = lastLine(
      (await costlineWith(dir, { COSTLINE_SECRET_KEY: OLD }, "dw-accounts", "create", "--org", "acme", "--name", "Prod")).stdout
    )
    const withServer = async (env: Record<string, string>, use: (base: string) => Promise<void>) => {
      const port = await freePort()
      const server = await startServerWith(env, dir, "--port", String(port))
      try {
        await use(`http://127.0.0.1:${port}`)
      } finally {
        await stop(server.child)
      }
    }
    const headers = { authorization: `Bearer ${token}`, "x-tenant-id": "acme", "content-type": "application/json" }
    await withServer({ COSTLINE_SECRET_KEY: OLD }, async (base) => {
      const reply = await fetch(`${base}/v2/dw-accounts/${id}`, {
        method: "PATCH",
        headers,
        body: JSON.stringify({ credentials: { authentication_method: "key_pair", private_key: testKey().pkcs8 } })
      })
      expect(reply.status).toBe(200)
    })

    const both = { COSTLINE_SECRET_KEYS: `2026-11:${NEW},default:${OLD}` }
    // Before the reseal the old key cannot go.
    expectOneLineRefusal(
      await costlineWith(dir, { COSTLINE_SECRET_KEYS: `2026-11:${NEW}` }, "dw-accounts", "create", "--org", "acme", "--name", "X"),
      "sealed under master key 'default', which is not configured"
    )
    const resealed = await costlineWith(dir, both, "secrets", "reseal", "--batch-size", "1")
    expect(resealed.code).toBe(0)
    expect(lastLine(resealed.stdout)).toBe(
      "resealed 1 credential(s) under the current master key; 0 already were. Older master keys may now be removed."
    )

    const newOnly = { COSTLINE_SECRET_KEYS: `2026-11:${NEW}` }
    await withServer(newOnly, async (base) => {
      const reply = await fetch(`${base}/v2/dw-accounts/${id}`, { headers })
      expect(reply.status).toBe(200)
      expect(((await reply.json()) as { public_key_fingerprint: string }).public_key_fingerprint).toBe(testKey().fingerprint)
    })
    expectOneLineRefusal(
      await costlineWith(dir, { COSTLINE_SECRET_KEY: OLD }, "serve", "--port", String(await freePort())),
      "sealed under master key '2026-11', which is not configured"
    )
    const nothingLeft = await costlineWith(dir, newOnly, "secrets", "reseal")
    expect(lastLine(nothingLeft.stdout)).toContain("resealed 0 credential(s) under the current master key; 1 already were")
  })
})

describe("the development key and the database files", () => {
  it("the development key lives beside the SQLite file, whatever directory the command runs from", async () => {
    const home = scratchDir()
    const dbDir = join(home, "data")
    const url = `sqlite:${join(dbDir, "costline.db")}`
    const elsewhere = scratchDir()
    const another = scratchDir()
    expect((await costline(elsewhere, "seed", "--org", "acme", "--database", url)).code).toBe(0)
    const env = { NODE_ENV: "development" }
    const first = await costlineWith(elsewhere, env, "dw-accounts", "create", "--org", "acme", "--name", "A", "--database", url)
    expect(first.code).toBe(0)
    expect(first.stderr).toContain(`generated a development key in ${join(dbDir, "secret-key")}`)
    const second = await costlineWith(another, env, "dw-accounts", "create", "--org", "acme", "--name", "B", "--database", url)
    expect(second.code).toBe(0)
    expect(second.stderr).toContain(`using the development key in ${join(dbDir, "secret-key")}`)
    for (const cwd of [elsewhere, another]) expect(existsSync(join(cwd, ".costline", "secret-key"))).toBe(false)
  })

  it("the SQLite database, its WAL and shared-memory files and the key file are created with mode 0600", async () => {
    const dir = scratchDir()
    mkdirSync(join(dir, ".costline"))
    const server = await startServerWith({ NODE_ENV: "development" }, dir, "--port", String(await freePort()))
    try {
      for (const file of ["costline.db", "costline.db-wal", "costline.db-shm", "secret-key"]) {
        expect({ file, mode: statSync(join(dir, ".costline", file)).mode & 0o777 }).toEqual({ file, mode: 0o600 })
      }
    } finally {
      await stop(server.child)
    }
  })
})
