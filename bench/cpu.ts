/**
 * CPU per request in process, A/B: costline's node handler (`makeHandler`, as mounted in
 * node:http, Express or Fastify) driven without sockets (light-my-request), one request at a
 * time, over a seeded SQLite file. Each measurement is a process of its own (`cpu-run.mjs`) that
 * warms until its CPU per request is steady, then reports the median of its batches. With
 * `--root` given twice, the builds alternate A-B-A-B… (e.g. a checkout of main against this
 * one). On a machine other jobs load, this is the figure to compare builds by.
 *
 *   npx vite-node bench/cpu.ts -- --scenarios insight_get,insights_list --root /work/main --root . --rounds 2
 *
 * `--options <json>` given once per `--root` runs that build with those `makeHandler` options
 * (over `COSTLINE_BENCH_OPTIONS`): with the same root twice, a paired ablation of one piece, e.g.
 *
 *   npx vite-node bench/cpu.ts -- --paired --scenarios insight_get --root . --options '{}' --root . --options '{"accessLog":false}'
 *
 * `--store postgres` runs over a seeded Postgres database instead (`COSTLINE_BENCH_PG_URL`, else an
 * embedded server): every run shares it (patches are not undone between runs).
 *
 * `--steps` counts interpreter steps per request instead, `--statements` lists the SQL of one
 * request, `--trace <dir>` writes which effect each step of one request ran (a file per build).
 *
 * `--node-flags="<flags>"` starts every measurement process with those Node/V8 flags (given with
 * `=`: a value that starts with `--` is otherwise taken for an option), e.g. the server's heap
 * sizing (`--max-semi-space-size=4`) or `--trace-gc`, with `COSTLINE_BENCH_STDOUT=<file>` keeping
 * the processes' stdout (the access log, the GC trace), which is otherwise dropped.
 *
 * `--cpu-prof <dir>` writes each measurement's V8 CPU profile there (open it in Chrome DevTools).
 *
 * `--alloc <dir>` reports instead the bytes one request allocates and where (`alloc-run.mjs`: V8's
 * sampling heap profiler, collected objects included), a file per scenario and build.
 */
import { copyFileSync, mkdirSync, mkdtempSync, openSync, rmSync } from "node:fs"
import { spawnSync } from "node:child_process"
import { tmpdir } from "node:os"
import { basename, dirname, join, resolve } from "node:path"
import { fileURLToPath } from "node:url"
import { parseArgs } from "node:util"
import { measurementFlags } from "./lib/NodeFlags.js"
import { ORGANIZATION, seed } from "./lib/Seed.js"
import { postgresTarget, sqliteTarget } from "./lib/Stores.js"

const BENCH = dirname(fileURLToPath(import.meta.url))
const { values: flags } = parseArgs({
  args: process.argv.slice(2),
  options: {
    store: { type: "string", default: "sqlite" },
    scenarios: { type: "string", default: "insight_get,insights_list,audit_export,insight_patch,healthz,v1_teams" },
    root: { type: "string", multiple: true },
    /** `makeHandler` options (JSON) per `--root`, in the same order. */
    options: { type: "string", multiple: true },
    rounds: { type: "string", default: "2" },
    batch: { type: "string", default: "400" },
    batches: { type: "string", default: "5" },
    "warm-up-seconds": { type: "string", default: "60" },
    /** Each measurement also writes a V8 CPU profile (`node --cpu-prof`) into this directory. */
    "cpu-prof": { type: "string" },
    /** All builds in one process, batches interleaved (`cpu-pair.mjs`): the steadier A/B on a loaded machine. */
    paired: { type: "boolean", default: false },
    /** Instead of CPU time: interpreter steps, FiberRef writes and fibers per request (`steps.mjs`), once per build. */
    steps: { type: "boolean", default: false },
    /** Instead of CPU time: the SQL statements of one request (`statements.mjs`), once per build. */
    statements: { type: "boolean", default: false },
    /** Instead of CPU time: which effect each step of one request ran (`trace-steps.mjs`), a file per build in this directory. */
    trace: { type: "string" },
    /** Instead of CPU time: bytes allocated per request and where (`alloc-run.mjs`), a file per scenario and build in this directory. */
    alloc: { type: "string" },
    /** Node/V8 flags for every measurement process, space-separated (e.g. `--max-semi-space-size=4 --trace-gc`). */
    "node-flags": { type: "string", default: "" }
  }
})
const roots = (flags.root ?? [join(BENCH, "..")]).map((root) => resolve(root))
const sideOptions: Array<Record<string, unknown>> = flags.options === undefined
  ? roots.map(() => ({}))
  : flags.options.map((text) => JSON.parse(text))
if (sideOptions.length !== roots.length) throw new Error(`--options given ${sideOptions.length} times for ${roots.length} --root`)
/** How a side is named in the summary: its root, and its options when any side has some. */
const labels = roots.map((root, index) => flags.options === undefined ? root : `${index}: ${root} ${JSON.stringify(sideOptions[index])}`)

if (flags.store !== "sqlite" && flags.store !== "postgres") throw new Error(`--store sqlite or postgres, not ${flags.store}`)
const target = flags.store === "postgres" ? await postgresTarget() : sqliteTarget()
const seeded = await seed(target, { auditRecords: 2_000, insights: 2_000, usageRecords: 0 })
const scratch = mkdtempSync(join(tmpdir(), "costline-cpu-"))
const results: Array<{ scenario: string; side: string; median_us: number }> = []
const nodeFlags = measurementFlags(flags["node-flags"], flags["cpu-prof"] === undefined ? undefined : resolve(flags["cpu-prof"]))
/** The measurement processes' stdout (the access log, `--trace-gc`): kept in the file `COSTLINE_BENCH_STDOUT` names, else dropped. */
const stdout = process.env.COSTLINE_BENCH_STDOUT === undefined ? "ignore" : openSync(process.env.COSTLINE_BENCH_STDOUT, "a")
/** Runs one measurement process; its last stderr line is its JSON result. */
const measure = (script: string, job: object): any => {
  const run = spawnSync(process.execPath, [...nodeFlags, join(BENCH, script), JSON.stringify(job)], {
    encoding: "utf8",
    stdio: ["ignore", stdout, "pipe"],
    maxBuffer: 64 * 1024 * 1024
  })
  const line = run.stderr.trim().split("\n").at(-1) ?? ""
  if (run.status !== 0) throw new Error(`${script} failed:\n${run.stderr.slice(-2000)}`)
  process.stderr.write(line + "\n")
  return JSON.parse(line)
}
/** The database a run uses: a fresh copy of the seeded SQLite file (named `name`), or the Postgres URL. */
const database = (name: string) => {
  if (target.kind === "postgres") return target.url
  const filename = join(scratch, name)
  rmSync(filename, { force: true })
  copyFileSync(target.filename, filename)
  return filename
}
const common = {
  token: seeded.token, organization: ORGANIZATION, insightIds: seeded.insightIds, teamId: seeded.teamId,
  batch: Number(flags.batch), batches: Number(flags.batches), warmUpSeconds: Number(flags["warm-up-seconds"])
}
try {
  for (const scenario of flags.steps ? flags.scenarios.split(",") : []) {
    for (const root of roots) {
      measure("steps.mjs", { ...common, root, scenario, filename: database("run.db") })
    }
  }
  for (const scenario of flags.statements ? flags.scenarios.split(",") : []) {
    for (const root of roots) {
      measure("statements.mjs", { ...common, root, scenario, filename: database("run.db") })
    }
  }
  const traceDir = flags.trace === undefined ? undefined : resolve(flags.trace)
  for (const scenario of traceDir === undefined ? [] : flags.scenarios.split(",")) {
    mkdirSync(traceDir!, { recursive: true })
    roots.forEach((root, index) => {
      const out = join(traceDir!, `${scenario}-${index}-${basename(root)}.txt`)
      measure("trace-steps.mjs", { ...common, root, scenario, filename: database("run.db"), out })
    })
  }
  const allocDir = flags.alloc === undefined ? undefined : resolve(flags.alloc)
  for (const scenario of allocDir === undefined ? [] : flags.scenarios.split(",")) {
    mkdirSync(allocDir!, { recursive: true })
    roots.forEach((root, index) => {
      const out = join(allocDir!, `${scenario}-${index}-${basename(root)}.txt`)
      measure("alloc-run.mjs", { ...common, root, scenario, filename: database("run.db"), out })
    })
  }
  const timed = !flags.steps && !flags.statements && traceDir === undefined && allocDir === undefined
  for (const scenario of !timed || flags.paired ? [] : flags.scenarios.split(",")) {
    for (let round = 0; round < Number(flags.rounds); round++) {
      roots.forEach((root, index) => {
        // A copy per run (SQLite): patches change the data, and each run starts from the same file.
        const run = measure("cpu-run.mjs", { ...common, root, options: sideOptions[index], scenario, filename: database("run.db") })
        results.push({ scenario, side: labels[index]!, median_us: run.median_us })
      })
    }
  }
  for (const scenario of timed && flags.paired ? flags.scenarios.split(",") : []) {
    for (let round = 0; round < Number(flags.rounds); round++) {
      const filenames = roots.map((_, index) => database(`run-${index}.db`))
      const pair = measure("cpu-pair.mjs", { ...common, roots, options: sideOptions, scenario, filenames })
      labels.forEach((side, index) => results.push({ scenario, side, median_us: pair.median_us[index] }))
    }
  }
} finally {
  rmSync(scratch, { recursive: true, force: true })
  await target.dispose()
}
const summary = flags.scenarios.split(",").map((scenario) => ({
  scenario,
  ...Object.fromEntries(labels.map((side) => [side, results.filter((r) => r.scenario === scenario && r.side === side).map((r) => r.median_us)]))
}))
console.log(JSON.stringify(summary, null, 1))
