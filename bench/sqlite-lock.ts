/**
 * A `costline serve` on a SQLite file while ANOTHER PROCESS writes to it: how fast `/healthz`
 * answers, and whether API writes go through. See docs/operations.md ("SQLite's write lock").
 *
 *   npm run build && npx vite-node bench/sqlite-lock.ts --                # lock held by another process
 *   npx vite-node bench/sqlite-lock.ts -- --usage-rows 1000000            # and during a usage import
 *   npx vite-node bench/sqlite-lock.ts -- --requests 2000 --usage-rows 0  # only the held lock
 *
 * Requests are sent one at a time from this process; the server, the lock holder and the import
 * are processes of their own, as in production.
 */
import { type ChildProcess, spawn } from "node:child_process"
import { createWriteStream, mkdtempSync, rmSync } from "node:fs"
import { createRequire } from "node:module"
import { createServer } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { parseArgs } from "node:util"
import { usageRecord } from "./lib/UsageData.js"

const BIN = fileURLToPath(new URL("../packages/cli/bin/costline.js", import.meta.url))
const { values: flags } = parseArgs({
  args: process.argv.slice(2),
  options: {
    requests: { type: "string", default: "1000" },
    "usage-rows": { type: "string", default: "100000" }
  }
})
const REQUESTS = Number(flags.requests)
const USAGE_ROWS = Number(flags["usage-rows"])

const dir = mkdtempSync(join(tmpdir(), "costline-lock-bench-"))
const database = `sqlite:${join(dir, "costline.db")}`
const children: Array<ChildProcess> = []
process.on("exit", () => {
  for (const child of children) child.kill()
  rmSync(dir, { recursive: true, force: true })
})

const freePort = () =>
  new Promise<number>((resolve) => {
    const server = createServer().listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number }
      server.close(() => resolve(port))
    })
  })

/** Starts a process and resolves with it once its output matches `ready`. */
const startProcess = (args: ReadonlyArray<string>, ready: RegExp) =>
  new Promise<{ child: ChildProcess; output: () => string }>((resolve, reject) => {
    const child = spawn(process.execPath, args, { stdio: ["pipe", "pipe", "pipe"] })
    children.push(child)
    let output = ""
    const onData = (chunk: Buffer) => {
      output += chunk.toString()
      if (ready.test(output)) resolve({ child, output: () => output })
    }
    child.stdout!.on("data", onData)
    child.stderr!.on("data", onData)
    child.once("exit", (code) => reject(new Error(`${args.join(" ")} exited (${code}): ${output}`)))
  })

const percentile = (samples: ReadonlyArray<number>, p: number) => {
  const sorted = [...samples].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN
}

const summary = (samples: ReadonlyArray<number>) =>
  `n=${samples.length} p50 ${percentile(samples, 50).toFixed(1)} ms, p99 ${percentile(samples, 99).toFixed(1)} ms, ` +
  `max ${Math.max(...samples).toFixed(1)} ms`

const timedFetch = async (url: string, init?: RequestInit) => {
  const started = performance.now()
  const response = await fetch(url, init)
  await response.arrayBuffer()
  return { ms: performance.now() - started, status: response.status }
}

const port = await freePort()
const server = await startProcess([BIN, "serve", "--demo", "--database", database, "--port", String(port)], /listening on/)
const key = /Bearer ([A-Za-z0-9_.-]+)/.exec(server.output())?.[1]
if (key === undefined) throw new Error(`no API key in: ${server.output()}`)
const base = `http://127.0.0.1:${port}`
const healthz = async (count: number) => {
  const samples: Array<number> = []
  for (let i = 0; i < count; i++) samples.push((await timedFetch(`${base}/healthz`)).ms)
  return samples
}
let teams = 0
const writeTeam = () =>
  timedFetch(`${base}/v2/teams`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json", "x-tenant-id": "demo" },
    body: JSON.stringify({ name: `bench team ${teams++}` })
  })

await healthz(200) // warm-up
console.log(`/healthz, nothing else running:          ${summary(await healthz(REQUESTS))}`)

// Another process takes the write lock (BEGIN IMMEDIATE) and holds it while /healthz is measured.
const driver = createRequire(import.meta.url).resolve("better-sqlite3")
const holder = await startProcess([
  "-e",
  `const db = new (require(process.argv[1]))(process.argv[2]); db.exec("BEGIN IMMEDIATE"); console.log("locked");
   process.stdin.once("data", () => { db.exec("COMMIT"); process.exit(0) })`,
  driver,
  join(dir, "costline.db")
], /locked/)
const pendingWrite = writeTeam()
console.log(`/healthz, another process holds the lock: ${summary(await healthz(REQUESTS))}`)
holder.child.removeAllListeners("exit")
holder.child.stdin!.write("commit\n")
const waited = await pendingWrite
console.log(`a write that waited for that lock: ${waited.status} after ${waited.ms.toFixed(0)} ms`)

if (USAGE_ROWS > 0) {
  const file = join(dir, "usage.jsonl")
  const out = createWriteStream(file)
  for (let n = 0; n < USAGE_ROWS; n++) {
    if (!out.write(JSON.stringify(usageRecord(n)) + "\n")) await new Promise((resolve) => out.once("drain", resolve))
  }
  await new Promise((resolve) => out.end(resolve))
  const started = performance.now()
  const importer = spawn(process.execPath, [BIN, "usage", "import", "--org", "demo", file, "--database", database], {
    stdio: ["ignore", "pipe", "pipe"]
  })
  children.push(importer)
  let importOutput = ""
  importer.stdout.on("data", (chunk: Buffer) => (importOutput += chunk.toString()))
  const done = new Promise<number | null>((resolve) => importer.once("exit", resolve))
  let finished = false
  void done.then(() => (finished = true))
  const health: Array<number> = []
  const writes: Array<{ ms: number; status: number }> = []
  while (!finished) {
    health.push(...(await healthz(20)))
    writes.push(await writeTeam())
  }
  const code = await done
  const seconds = (performance.now() - started) / 1000
  console.log(`usage import of ${USAGE_ROWS} rows: exit ${code}, ${seconds.toFixed(1)} s (${Math.round(USAGE_ROWS / seconds)} rows/s): ${importOutput.trim()}`)
  console.log(`  /healthz meanwhile:    ${summary(health)}`)
  console.log(`  POST /v2/teams meanwhile: ${summary(writes.map((write) => write.ms))}; statuses ${JSON.stringify(
    Object.fromEntries([...new Set(writes.map((write) => write.status))].map((status) => [status, writes.filter((write) => write.status === status).length]))
  )}`)
}
process.exit(0)
