/**
 * `costline audit tail` against a running `costline serve`: JSON Lines, and with `--state`
 * every record printed exactly once over any number of runs, including one stopped by SIGTERM.
 */
import { type ChildProcess, execFile, spawn } from "node:child_process"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { freePort } from "./network.js"
import { BIN, costline, lastLine, scratchDir, startServer, stop } from "./support.js"

const dir = scratchDir()
let port = 0
let key = ""
let server: ChildProcess | undefined

const env = () => {
  const { COSTLINE_API_KEY: _key, COSTLINE_DATABASE_URL: _db, COSTLINE_URL: _url, ...rest } = process.env
  return { ...rest, COSTLINE_API_KEY: key, COSTLINE_URL: `http://127.0.0.1:${port}` }
}

const tail = (...args: Array<string>) =>
  new Promise<{ code: number; lines: Array<any>; stderr: string }>((resolve) => {
    execFile(process.execPath, [BIN, "audit", "tail", "--org", "acme", ...args], { cwd: dir, env: env() }, (error, stdout, stderr) => {
      const lines = stdout.split("\n").filter((line) => line.length > 0).map((line) => JSON.parse(line))
      resolve({ code: error === null ? 0 : typeof error.code === "number" ? error.code : 1, lines, stderr })
    })
  })

const createTeam = async (name: string) => {
  const response = await fetch(`http://127.0.0.1:${port}/v2/teams`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "x-tenant-id": "acme", "content-type": "application/json" },
    body: JSON.stringify({ name })
  })
  expect(response.status).toBe(201)
  return ((await response.json()) as { id: string }).id
}

/** Every record of the organization, straight from the API. */
const allRecordIds = async () => {
  const response = await fetch(`http://127.0.0.1:${port}/v2/audit-logs?max_results=500`, {
    headers: { authorization: `Bearer ${key}`, "x-tenant-id": "acme" }
  })
  return ((await response.json()) as { items: Array<{ id: string }> }).items.map((record) => record.id)
}

beforeAll(async () => {
  key = lastLine((await costline(dir, "seed", "--org", "acme")).stdout)
  port = await freePort()
  server = (await startServer(dir, "--port", String(port))).child
}, 120_000)

afterAll(() => server === undefined ? undefined : stop(server))

// Each run starts a node process: slow on a busy machine.
describe("costline audit tail", { timeout: 120_000 }, () => {
  it("prints the records as JSON Lines, as the API serves them", async () => {
    const teamId = await createTeam("Printed")
    const { code, lines } = await tail("--once")
    expect(code).toBe(0)
    expect(lines.find((record) => record.record_id === teamId)).toMatchObject({
      resource: "teams",
      operation: "create",
      changed_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/)
    })
  })

  it("with --state prints each record once over many runs", async () => {
    const state = join(dir, "once.json")
    const first = await tail("--once", "--state", state)
    expect(first.lines.length).toBeGreaterThan(0)
    expect((await tail("--once", "--state", state)).lines).toEqual([])
    const teamId = await createTeam("Later")
    const third = await tail("--once", "--state", state)
    expect(third.lines.map((record) => record.record_id)).toEqual([teamId])
    expect([...first.lines, ...third.lines].map((record) => record.id)).toEqual(await allRecordIds())
  })

  it("following, then stopped with SIGTERM and started again: nothing lost, nothing twice", async () => {
    const state = join(dir, "follow.json")
    const printed: Array<string> = []
    const follower = spawn(process.execPath, [BIN, "audit", "tail", "--org", "acme", "--state", state, "--interval", "1"], {
      cwd: dir,
      env: env()
    })
    let buffer = ""
    const lineArrived = (predicate: (record: any) => boolean) =>
      new Promise<void>((resolve) => {
        const onData = (chunk: Buffer) => {
          buffer += chunk.toString()
          const lines = buffer.split("\n")
          buffer = lines.pop()!
          for (const line of lines) {
            const record = JSON.parse(line)
            printed.push(record.id)
            if (predicate(record)) {
              follower.stdout.off("data", onData)
              resolve()
            }
          }
        }
        follower.stdout.on("data", onData)
      })
    const teamId = await createTeam("Followed")
    await lineArrived((record) => record.record_id === teamId)
    await stop(follower, "SIGTERM")
    await createTeam("While stopped")
    const resumed = await tail("--once", "--state", state)
    expect([...printed, ...resumed.lines.map((record) => record.id)]).toEqual(await allRecordIds())
  })

  it("needs COSTLINE_API_KEY, and says so", async () => {
    const result = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
      const { COSTLINE_API_KEY: _key, ...rest } = env()
      execFile(process.execPath, [BIN, "audit", "tail", "--org", "acme", "--once"], { cwd: dir, env: rest }, (error, _stdout, stderr) =>
        resolve({ code: error === null ? 0 : (error.code as number), stderr }))
    })
    expect(result.code).toBe(1)
    expect(result.stderr).toContain("COSTLINE_API_KEY")
  })
})
