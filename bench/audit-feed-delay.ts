/**
 * How long a record committed through the API takes to reach a poller of `GET /v2/audit-logs`
 * on PostgreSQL (issue 14: within 1 s), in three phases: quiet, with a transaction holding an xid
 * open in ANOTHER database, and while `costline usage import` loads N rows. See
 * docs/operations.md ("The audit feed's delay").
 *
 *   npm run build && npx vite-node bench/audit-feed-delay.ts --               # 1,000,000 rows
 *   npx vite-node bench/audit-feed-delay.ts -- --usage-rows 200000 --hold-seconds 20
 *   npx vite-node bench/audit-feed-delay.ts -- --usage-rows 0 --hold-seconds 0 --quiet-seconds 90 \
 *     --serve-node-flags=--single-threaded-gc                                # an A/B of server flags
 *
 * Everything is a process of its own, as in production: Postgres (COSTLINE_BENCH_PG_URL, a role
 * that may CREATE DATABASE, else a throwaway server as the store-pg tests start), `costline
 * serve`, the import, the foreign transaction's holder. This process creates teams one at a time
 * (POST /v2/teams, spaced by --create-every-ms) and polls the feed continuously with its cursor
 * on another connection; a record's delay is from the 201 to the end of the poll that returned
 * it (negative: the poll returned it before the 201 arrived). For each delay it keeps where the
 * time went: waiting for a poll to start after the 201, and the delivering poll itself (client
 * time, and the server's own `duration_ms` from its request log, matched by request id). During
 * the run it samples pg_stat_activity (wait events of the server's and the import's connections)
 * and, in the import phase, EXPLAIN ANALYZEs the export query.
 */
import { type ChildProcess, spawn } from "node:child_process"
import { createWriteStream, mkdtempSync, readFileSync, rmSync } from "node:fs"
import { createRequire } from "node:module"
import { loadavg, tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { parseArgs } from "node:util"
import { freePort } from "../test-support/network.js"
import { startEmbedded } from "../test-support/postgres/globalSetup.js"
import { cpuMicros } from "./lib/Cpu.js"
import { usageRecord } from "./lib/UsageData.js"

const BIN = fileURLToPath(new URL("../packages/cli/bin/costline.js", import.meta.url))
const { values: flags } = parseArgs({
  args: process.argv.slice(2),
  options: {
    "usage-rows": { type: "string", default: "1000000" },
    "hold-seconds": { type: "string", default: "60" },
    "quiet-seconds": { type: "string", default: "15" },
    "create-every-ms": { type: "string", default: "100" },
    "sample-every-ms": { type: "string", default: "25" },
    /** Extra node flags for `costline serve`, space-separated (e.g. "--single-threaded-gc"). */
    "serve-node-flags": { type: "string", default: "" }
  }
})
const USAGE_ROWS = Number(flags["usage-rows"])
const HOLD_SECONDS = Number(flags["hold-seconds"])
const QUIET_SECONDS = Number(flags["quiet-seconds"])
const CREATE_EVERY_MS = Number(flags["create-every-ms"])
const SAMPLE_EVERY_MS = Number(flags["sample-every-ms"])

/** The few node-postgres calls used here (the bench has no @types/pg). */
interface PgClient {
  connect(): Promise<void>
  query<R = Record<string, unknown>>(text: string, values?: ReadonlyArray<unknown>): Promise<{ rows: Array<R> }>
  end(): Promise<void>
}
const require = createRequire(import.meta.url)
const pg = require("pg") as { Client: new(config: { connectionString: string }) => PgClient }
const connect = async (url: string) => {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  return client
}

const dir = mkdtempSync(join(tmpdir(), "costline-feed-bench-"))
const children: Array<ChildProcess> = []
const cleanups: Array<() => Promise<void>> = []
process.on("exit", () => {
  for (const child of children) child.kill("SIGKILL")
  rmSync(dir, { recursive: true, force: true })
})

const load = () => loadavg().map((n) => n.toFixed(1)).join(" ")
const percentile = (samples: ReadonlyArray<number>, p: number) => {
  const sorted = [...samples].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? NaN
}
const stats = (samples: ReadonlyArray<number>) =>
  samples.length === 0
    ? "n=0"
    : `n=${samples.length} p50 ${percentile(samples, 50).toFixed(0)}, p99 ${percentile(samples, 99).toFixed(0)}, max ${
      Math.max(...samples).toFixed(0)
    } ms`

// --- Postgres: the costline database and another one -----------------------------------------
const external = process.env["COSTLINE_BENCH_PG_URL"]
const server = external !== undefined && external !== "" ? { url: external, stop: async () => {} } : await startEmbedded()
const databaseUrl = (name: string, applicationName?: string) => {
  const url = new URL(server.url)
  url.pathname = `/${name}`
  if (applicationName !== undefined) url.searchParams.set("application_name", applicationName)
  return url.toString()
}
const NAME = `costline_feed_${process.pid}`
const OTHER = `other_${process.pid}`
const admin = await connect(server.url)
await admin.query(`CREATE DATABASE ${NAME}`)
await admin.query(`CREATE DATABASE ${OTHER}`)
cleanups.push(async () => {
  await admin.query(`DROP DATABASE IF EXISTS ${NAME} WITH (FORCE)`)
  await admin.query(`DROP DATABASE IF EXISTS ${OTHER} WITH (FORCE)`)
  await admin.end()
  await server.stop()
})

// --- costline serve ------------------------------------------------------------------------
const port = await freePort()
const serverCwd = mkdtempSync(join(dir, "serve-"))
const serve = spawn(process.execPath, [
  "--trace-gc",
  ...flags["serve-node-flags"].split(" ").filter((flag) => flag !== ""),
  BIN,
  "serve",
  "--demo",
  "--database",
  databaseUrl(NAME, "costline-serve"),
  "--port",
  String(port)
], {
  cwd: serverCwd,
  env: { ...process.env, COSTLINE_RATE_LIMIT: "off" },
  stdio: ["ignore", "pipe", "pipe"]
})
children.push(serve)
/** The server's own duration for each request id (its JSON request log). */
const serverMs = new Map<string, number>()
/** The server's garbage collection pauses (`--trace-gc`): when this process read the line, and the pause. */
const gcPauses: Array<{ readonly at: number; readonly ms: number; readonly line: string }> = []
let serveOutput = ""
let serveTail = ""
const key = await new Promise<string>((resolve, reject) => {
  const onData = (chunk: Buffer) => {
    const text = serveTail + chunk.toString("utf8")
    const lines = text.split("\n")
    serveTail = lines.pop() ?? ""
    for (const line of lines) {
      const gc = /MB, (?:pooled: [\d.]+ MB, )?([\d.]+) \/ [\d.]+ ms/.exec(line)
      if (gc !== null) {
        gcPauses.push({ at: performance.now(), ms: Number(gc[1]), line: line.replace(/^\[[^\]]*\]\s*/, "") })
      } else if (line.startsWith("{")) {
        try {
          const entry = JSON.parse(line) as { annotations?: { request_id?: string; duration_ms?: number } }
          const id = entry.annotations?.request_id
          if (id !== undefined && entry.annotations?.duration_ms !== undefined) serverMs.set(id, entry.annotations.duration_ms)
        } catch {
          // not a log line
        }
      } else if (serveOutput.length < 4000) {
        serveOutput += line + "\n"
        const found = /Bearer ([A-Za-z0-9_.-]+)/.exec(serveOutput)
        if (found !== null && /listening on/.test(serveOutput)) resolve(found[1]!)
      }
    }
  }
  serve.stdout!.on("data", onData)
  serve.stderr!.on("data", (chunk: Buffer) => (serveOutput += chunk.toString()))
  serve.once("exit", (code) => reject(new Error(`costline serve exited (${code}): ${serveOutput}`)))
})
const base = `http://127.0.0.1:${port}`
const headers = { authorization: `Bearer ${key}`, "x-tenant-id": "demo" }

// --- the poller and the writer -------------------------------------------------------------
interface Poll {
  readonly started: number
  readonly ended: number
  readonly requestId: string
}
/** When each team id reached the poller, and by which poll. */
const seen = new Map<string, Poll>()
const polls: Array<Poll> = []
let cursor: string | undefined
let polling = true
const poller = (async () => {
  // Start at the end of the feed: what came before the run is not measured.
  while (polling) {
    const started = performance.now()
    const query = new URLSearchParams({ max_results: "100" })
    if (cursor !== undefined) query.set("page_token", cursor)
    const response = await fetch(`${base}/v2/audit-logs?${query}`, { headers })
    const body = await response.json() as { items?: Array<{ record_id: string; table_name: string }>; page_token?: string | null }
    const ended = performance.now()
    if (response.status !== 200) throw new Error(`GET /v2/audit-logs answered ${response.status}: ${JSON.stringify(body)}`)
    const poll = { started, ended, requestId: response.headers.get("x-request-id") ?? "" }
    polls.push(poll)
    for (const item of body.items ?? []) if (item.table_name === "teams") seen.set(item.record_id, poll)
    if (body.page_token !== null && body.page_token !== undefined) cursor = body.page_token
  }
})()

interface Created {
  readonly id: string
  /** When the 201 arrived. */
  readonly at: number
  readonly createMs: number
}
let teams = 0
const createTeam = async (): Promise<Created> => {
  const started = performance.now()
  const response = await fetch(`${base}/v2/teams`, {
    method: "POST",
    headers: { ...headers, "content-type": "application/json" },
    body: JSON.stringify({ name: `feed bench team ${teams++}` })
  })
  const body = await response.json() as { id?: string }
  const at = performance.now()
  if (response.status !== 201 || body.id === undefined) throw new Error(`POST /v2/teams answered ${response.status}: ${JSON.stringify(body)}`)
  return { id: body.id, at, createMs: at - started }
}
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

// --- CPU scheduling of the server and its Postgres backends ----------------------------------
/**
 * Linux's /proc/<pid>/schedstat of a process's main thread: nanoseconds it ran on a CPU, and
 * nanoseconds it was ready to run but waited for one (CPU starvation).
 */
const schedstat = (pid: number): { run: number; queued: number } => {
  try {
    const [run, queued] = readFileSync(`/proc/${pid}/schedstat`, "utf8").trim().split(/\s+/).map(Number)
    return { run: run! / 1e6, queued: queued! / 1e6 }
  } catch {
    return { run: 0, queued: 0 }
  }
}
/** The server's Postgres backends (pids), as pg_stat_activity names them. */
const serveBackends = new Set<number>()
interface Sched {
  readonly at: number
  readonly node: { run: number; queued: number }
  readonly pg: { run: number; queued: number }
}
const timeline: Array<Sched> = []
const schedSample = (): Sched => {
  const pg = { run: 0, queued: 0 }
  for (const pid of serveBackends) {
    const one = schedstat(pid)
    pg.run += one.run
    pg.queued += one.queued
  }
  return { at: performance.now(), node: schedstat(serve.pid!), pg }
}
const schedTimer = setInterval(() => timeline.push(schedSample()), 10)
/** The samples around [from, to]: the last at or before `from`, the first at or after `to`. */
const schedDuring = (from: number, to: number) => {
  let before = timeline[0]
  let after = timeline[timeline.length - 1]
  for (const sample of timeline) {
    if (sample.at <= from) before = sample
    if (sample.at >= to) {
      after = sample
      break
    }
  }
  if (before === undefined || after === undefined) return "no samples"
  const gc = gcPauses.filter((pause) => pause.at >= from && pause.at <= to + 50).reduce((sum, pause) => sum + pause.ms, 0)
  return `over ${(after.at - before.at).toFixed(0)} ms: node main thread ran ${(after.node.run - before.node.run).toFixed(0)} ms, ` +
    `waited for a CPU ${(after.node.queued - before.node.queued).toFixed(0)} ms (GC pauses ~${gc.toFixed(0)} ms); ` +
    `its Postgres backends ran ${(after.pg.run - before.pg.run).toFixed(0)} ms, waited for a CPU ${
      (after.pg.queued - before.pg.queued).toFixed(0)
    } ms`
}

// --- pg_stat_activity sampling -------------------------------------------------------------
const sampler = await connect(server.url)
const waits = new Map<string, number>()
let sampling = false
let samplerStopped = false
let samples = 0
const sampleLoop = (async () => {
  while (!samplerStopped) {
    if (!sampling) {
      await sleep(SAMPLE_EVERY_MS)
      continue
    }
    const { rows } = await sampler.query<{ pid: number; app: string; state: string; wait: string | null; query: string }>(
      `SELECT pid, application_name AS app, state, wait_event_type || ':' || wait_event AS wait, left(query, 40) AS query
       FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()`,
      [NAME]
    )
    samples++
    for (const row of rows) if (row.app === "costline-serve") serveBackends.add(row.pid)
    for (const row of rows) {
      if (row.state !== "active") continue
      const label = `${row.app || "?"} ${row.wait ?? "CPU"} [${row.query.replace(/\s+/g, " ")}]`
      waits.set(label, (waits.get(label) ?? 0) + 1)
    }
    await sleep(SAMPLE_EVERY_MS)
  }
})()

// --- one phase -----------------------------------------------------------------------------
interface PhaseResult {
  readonly name: string
  readonly delays: Array<number>
  readonly waits: Array<number>
  readonly pollClient: Array<number>
  readonly pollServer: Array<number>
  readonly createMs: Array<number>
  readonly allPolls: Array<number>
}

/** Creates records until `until()` and waits for the poller to see them all. */
const phase = async (name: string, until: () => boolean): Promise<PhaseResult> => {
  waits.clear()
  samples = 0
  sampling = true
  const firstPoll = polls.length
  const serveCpu = cpuMicros(serve.pid!)
  const startedAt = performance.now()
  const created: Array<Created> = []
  while (!until()) {
    created.push(await createTeam())
    await sleep(CREATE_EVERY_MS)
  }
  const deadline = performance.now() + 60_000
  while (created.some((c) => !seen.has(c.id)) && performance.now() < deadline) await sleep(20)
  sampling = false
  const missing = created.filter((c) => !seen.has(c.id)).length
  const result: PhaseResult = {
    name,
    delays: created.filter((c) => seen.has(c.id)).map((c) => seen.get(c.id)!.ended - c.at),
    // Waiting: from the 201 to the start of the poll that delivered the record (0 if it started before).
    waits: created.filter((c) => seen.has(c.id)).map((c) => Math.max(0, seen.get(c.id)!.started - c.at)),
    pollClient: created.filter((c) => seen.has(c.id)).map((c) => seen.get(c.id)!.ended - seen.get(c.id)!.started),
    pollServer: created.filter((c) => seen.has(c.id)).map((c) => serverMs.get(seen.get(c.id)!.requestId) ?? NaN)
      .filter((ms) => !Number.isNaN(ms)),
    createMs: created.map((c) => c.createMs),
    allPolls: polls.slice(firstPoll).map((p) => p.ended - p.started)
  }
  const seconds = (performance.now() - startedAt) / 1000
  console.log(`\n== ${name}: ${created.length} records in ${seconds.toFixed(1)} s, load ${load()}${missing > 0 ? `, ${missing} NEVER SEEN` : ""}`)
  console.log(`  delay 201 → seen by the poller: ${stats(result.delays)}`)
  console.log(`    waiting for the next poll:     ${stats(result.waits)}`)
  console.log(`    the delivering poll (client):  ${stats(result.pollClient)}`)
  console.log(`    the delivering poll (server):  ${stats(result.pollServer)}`)
  console.log(`  every poll (client):            ${stats(result.allPolls)}`)
  console.log(`  POST /v2/teams:                 ${stats(result.createMs)}`)
  console.log(`  costline serve CPU: ${((cpuMicros(serve.pid!) - serveCpu) / 1e6).toFixed(1)} s of ${seconds.toFixed(1)} s`)
  const worst = created.filter((c) => seen.has(c.id)).sort((a, b) => (seen.get(b.id)!.ended - b.at) - (seen.get(a.id)!.ended - a.at))
  for (const c of worst.slice(0, 3)) {
    const poll = seen.get(c.id)!
    console.log(`  slow: ${(poll.ended - c.at).toFixed(0)} ms = wait ${Math.max(0, poll.started - c.at).toFixed(0)} + poll ${
      (poll.ended - poll.started).toFixed(0)
    } (server ${serverMs.get(poll.requestId) ?? "?"} ms); its POST took ${c.createMs.toFixed(0)} ms`)
  }
  const slowPolls = polls.slice(firstPoll).sort((a, b) => (b.ended - b.started) - (a.ended - a.started))
  for (const poll of slowPolls.slice(0, 3)) {
    console.log(`  slowest poll: ${(poll.ended - poll.started).toFixed(0)} ms (server ${serverMs.get(poll.requestId) ?? "?"} ms); ${
      schedDuring(poll.started, poll.ended)
    }`)
  }
  const phaseGc = gcPauses.filter((pause) => pause.at >= startedAt)
  console.log(`  server GC: ${phaseGc.length} pauses, ${phaseGc.reduce((sum, pause) => sum + pause.ms, 0).toFixed(0)} ms in all; longest:`)
  for (const pause of [...phaseGc].sort((a, b) => b.ms - a.ms).slice(0, 3)) console.log(`    ${pause.line.slice(0, 160)}`)
  const first = timeline.find((sample) => sample.at >= startedAt)
  const last = timeline[timeline.length - 1]
  if (first !== undefined && last !== undefined) {
    console.log(`  whole phase: ${schedDuring(first.at, last.at)}`)
  }
  const top = [...waits.entries()].sort((a, b) => b[1] - a[1]).slice(0, 12)
  console.log(`  active backends in ${samples} samples of pg_stat_activity (app wait [query]: count):\n    ${
    top.map(([label, count]) => `${label}: ${count}`).join("\n    ") || "none"
  }`)
  return result
}

// Warm up: the server's first requests compile code paths.
for (let i = 0; i < 20; i++) await createTeam()
while ([...seen.keys()].length < 20) await sleep(20)

const quietUntil = performance.now() + QUIET_SECONDS * 1000
await phase("quiet", () => performance.now() > quietUntil)

// A transaction with an xid, held open in ANOTHER database by another process.
if (HOLD_SECONDS > 0) {
  const holder = spawn(process.execPath, [
    "-e",
    `const { Client } = require(process.argv[1]); const c = new Client({ connectionString: process.argv[2] });
     c.connect().then(() => c.query("BEGIN")).then(() => c.query("SELECT pg_current_xact_id()")).then(() => console.log("holding"));
     process.stdin.once("data", () => c.query("COMMIT").then(() => c.end()).then(() => process.exit(0)))`,
    require.resolve("pg"),
    databaseUrl(OTHER, "foreign-holder")
  ], { stdio: ["pipe", "pipe", "inherit"] })
  children.push(holder)
  await new Promise<void>((resolve) => holder.stdout!.on("data", (chunk: Buffer) => chunk.toString().includes("holding") && resolve()))
  const holdUntil = performance.now() + HOLD_SECONDS * 1000
  await phase(`foreign transaction (another database) held ${HOLD_SECONDS} s`, () => performance.now() > holdUntil)
  holder.stdin!.write("commit\n")
}

if (USAGE_ROWS > 0) {
  const file = join(dir, "usage.jsonl")
  const out = createWriteStream(file)
  for (let n = 0; n < USAGE_ROWS; n++) {
    if (!out.write(JSON.stringify(usageRecord(n)) + "\n")) await new Promise<void>((resolve) => out.once("drain", () => resolve()))
  }
  await new Promise((resolve) => out.end(resolve))
  const importStarted = performance.now()
  const importer = spawn(process.execPath, [BIN, "usage", "import", "--org", "demo", file, "--database", databaseUrl(NAME, "costline-import")], {
    stdio: ["ignore", "pipe", "pipe"]
  })
  children.push(importer)
  let importOutput = ""
  importer.stdout.on("data", (chunk: Buffer) => (importOutput += chunk.toString()))
  importer.stderr.on("data", (chunk: Buffer) => (importOutput = (importOutput + chunk.toString()).slice(-2000)))
  let importCode: number | null | undefined
  const importDone = new Promise<void>((resolve) =>
    importer.once("exit", (code) => {
      importCode = code
      resolve()
    })
  )
  // The export query's plan while the import runs (in its inserting pass, not its validation).
  const explainer = await connect(databaseUrl(NAME))
  const plans: Array<string> = []
  const explain = (async () => {
    for (let i = 0; i < 3 && importCode === undefined; i++) {
      await sleep(Math.max(5_000, USAGE_ROWS / 10))
      if (importCode !== undefined) break
      const { rows: last } = await explainer.query<{ stamp: string }>("SELECT max(stamp)::text AS stamp FROM audit_records")
      const { rows } = await explainer.query<{ "QUERY PLAN": string }>(
        `EXPLAIN (ANALYZE, BUFFERS) SELECT id, stamp FROM audit_records
         WHERE organization_id = 'demo' AND stamp IS NOT NULL AND stamp > ${Number(last[0]?.stamp ?? 0) - 1}
         ORDER BY stamp ASC LIMIT 100`
      )
      const { rows: counted } = await explainer.query<{ n: string }>("SELECT count(*) AS n FROM usage_records")
      plans.push(`[usage_records ${counted[0]?.n} rows, load ${load()}]\n    ${rows.map((r) => r["QUERY PLAN"]).join("\n    ")}`)
    }
  })()
  const importCpuAt = () => {
    try {
      return cpuMicros(importer.pid!)
    } catch {
      return NaN
    }
  }
  let importCpu = 0
  const cpuWatch = setInterval(() => {
    const now = importCpuAt()
    if (!Number.isNaN(now)) importCpu = now
  }, 200)
  await phase(`usage import of ${USAGE_ROWS} rows running`, () => importCode !== undefined)
  await importDone
  clearInterval(cpuWatch)
  await explain
  await explainer.end()
  const seconds = (performance.now() - importStarted) / 1000
  console.log(`  import: exit ${importCode}, ${seconds.toFixed(1)} s (${Math.round(USAGE_ROWS / seconds)} rows/s), ` +
    `its CPU ≥ ${(importCpu / 1e6).toFixed(1)} s: ${importOutput.trim().split("\n").pop()}`)
  for (const plan of plans) console.log(`  export query plan during the import ${plan}`)
}

polling = false
await poller
clearInterval(schedTimer)
samplerStopped = true
await sampleLoop
await sampler.end()
serve.kill("SIGTERM")
await new Promise((resolve) => serve.once("exit", resolve))
for (const cleanup of cleanups) await cleanup()
process.exit(0)
