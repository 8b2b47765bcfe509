/**
 * `costline audit tail` against a running `costline serve`: JSON Lines, and with `--state`
 * every record printed exactly once over any number of runs, including one stopped by SIGTERM.
 */
import { type ChildProcess, execFile, spawn } from "node:child_process"
import { createServer } from "node:http"
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

  it("--once waits out a 429 (Retry-After) instead of failing, and takes --max-results up to 500", async () => {
    const teamId = await createTeam("After a rate limit")
    // A proxy that answers the first export 429, then passes every request to the server.
    let refused = 0
    const proxy = createServer(async (request, response) => {
      if (refused === 0) {
        refused++
        response.writeHead(429, { "content-type": "application/problem+json", "retry-after": "1" })
        response.end(JSON.stringify({ type: "about:blank", title: "Too Many Requests", status: 429, code: "rate_limited", detail: "slow down", details: [], request_id: "r" }))
        return
      }
      const upstream = await fetch(`http://127.0.0.1:${port}${request.url}`, {
        headers: { authorization: String(request.headers.authorization), "x-tenant-id": String(request.headers["x-tenant-id"]) }
      })
      response.writeHead(upstream.status, { "content-type": upstream.headers.get("content-type") ?? "application/json" })
      response.end(await upstream.text())
    })
    const proxyPort = await freePort()
    await new Promise<void>((resolve) => proxy.listen(proxyPort, "127.0.0.1", resolve))
    try {
      const { code, lines, stderr } = await tail("--once", "--max-results", "500", "--url", `http://127.0.0.1:${proxyPort}`)
      expect(stderr).toBe("")
      expect(code).toBe(0)
      expect(refused).toBe(1)
      expect(lines.map((line) => line.record_id)).toContain(teamId)
    } finally {
      await new Promise((resolve) => proxy.close(resolve))
    }
    const tooMany = await tail("--once", "--max-results", "501")
    expect(tooMany.code).toBe(2)
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
