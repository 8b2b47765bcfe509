/** `costline dw-accounts create`, and where the CLI's master key comes from when none is configured. */
import { execFile } from "node:child_process"
import { existsSync, readFileSync, statSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { BIN, costline, lastLine, type RunResult, scratchDir, startServer, stop } from "./support.js"

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/
const KEY_FILE = join(".costline", "secret-key")

/** `costline` with extra environment variables (and none of the caller's COSTLINE_* ones). */
const costlineWith = (cwd: string, env: Record<string, string>, ...args: Array<string>) =>
  new Promise<RunResult>((resolve) => {
    const inherited = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith("COSTLINE_")))
    execFile(process.execPath, [BIN, ...args], { cwd, env: { ...inherited, ...env } }, (error, stdout, stderr) => {
      resolve({ code: error === null ? 0 : typeof error.code === "number" ? error.code : 1, stdout, stderr })
    })
  })

describe("costline dw-accounts create", () => {
  it("prints the new account's id alone on the last line; a development key is made once, mode 0600, and said so", async () => {
    const dir = scratchDir()
    await costline(dir, "seed", "--org", "acme")
    const first = await costlineWith(dir, { NODE_ENV: "development" }, "dw-accounts", "create", "--org", "acme", "--name", "Prod")
    expect(first.code).toBe(0)
    expect(lastLine(first.stdout)).toMatch(UUID)
    expect(first.stdout).toContain("created warehouse account 'Prod' for acme")
    expect(first.stderr).toContain(`generated a development key in ${KEY_FILE} (mode 0600)`)
    const keyFile = join(dir, KEY_FILE)
    expect(statSync(keyFile).mode & 0o777).toBe(0o600)
    const key = readFileSync(keyFile, "utf8")

    const second = await costlineWith(dir, { NODE_ENV: "development" }, "dw-accounts", "create", "--org", "acme", "--name", "Staging")
    expect(second.code).toBe(0)
    expect(lastLine(second.stdout)).not.toBe(lastLine(first.stdout))
    expect(second.stderr).toContain(`using the development key in ${KEY_FILE}`)
    expect(readFileSync(keyFile, "utf8")).toBe(key)
  })

  it("with COSTLINE_SECRET_KEY set, no key file is made", async () => {
    const dir = scratchDir()
    await costline(dir, "seed", "--org", "acme")
    const key = Buffer.alloc(32, 7).toString("base64")
    const created = await costlineWith(dir, { COSTLINE_SECRET_KEY: key }, "dw-accounts", "create", "--org", "acme", "--name", "Prod")
    expect(created.code).toBe(0)
    expect(created.stderr).toBe("")
    expect(existsSync(join(dir, KEY_FILE))).toBe(false)
  })

  it("an unknown organization or a blank name fails with a one-line reason; a missing name is a usage error", async () => {
    const dir = scratchDir()
    await costline(dir, "seed", "--org", "acme")
    const unknown = await costline(dir, "dw-accounts", "create", "--org", "nope", "--name", "Prod")
    expect(unknown.code).toBe(1)
    expect(unknown.stderr.trim().split("\n").at(-1)).toContain("organization nope not found")
    const blank = await costline(dir, "dw-accounts", "create", "--org", "acme", "--name", "   ")
    expect(blank.code).toBe(1)
    expect(blank.stderr).toContain("--name: must not be empty")
    expect((await costline(dir, "dw-accounts", "create", "--org", "acme")).code).toBe(2)
  })

})

describe("the CLI's master key", () => {
  it("in development, serve makes the key before it listens, and says so", async () => {
    const dir = scratchDir()
    const port = 20_000 + Math.floor(Math.random() * 20_000)
    const server = await startServer(dir, "--port", String(port))
    try {
      expect(server.output()).toContain(`generated a development key in ${KEY_FILE} (mode 0600)`)
      expect(statSync(join(dir, KEY_FILE)).mode & 0o777).toBe(0o600)
    } finally {
      await stop(server.child)
    }
  })

  it("in production, serve refuses to start without a configured key and makes no key file", async () => {
    const dir = scratchDir()
    const refused = await costlineWith(dir, { NODE_ENV: "production" }, "serve", "--port", "0")
    expect(refused.code).toBe(1)
    expect(refused.stderr).toContain("COSTLINE_SECRET_KEY")
    expect(existsSync(join(dir, KEY_FILE))).toBe(false)
  })
})
