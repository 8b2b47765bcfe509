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
 * `--cpu-prof <dir>` leaves a V8 CPU profile of each measurement in <dir>
 * (`<scenario>-<round>-<root index>.cpuprofile`).
 */
import { copyFileSync, mkdtempSync, rmSync } from "node:fs"
import { spawnSync } from "node:child_process"
import { tmpdir } from "node:os"
import { dirname, join, resolve } from "node:path"
import { fileURLToPath } from "node:url"
import { parseArgs } from "node:util"
import { ORGANIZATION, seed } from "./lib/Seed.js"
import { sqliteTarget } from "./lib/Stores.js"

const BENCH = dirname(fileURLToPath(import.meta.url))
const { values: flags } = parseArgs({
  args: process.argv.slice(2),
  options: {
    scenarios: { type: "string", default: "insight_get,insights_list,audit_export,insight_patch,healthz,v1_teams" },
    root: { type: "string", multiple: true },
    rounds: { type: "string", default: "2" },
    batch: { type: "string", default: "400" },
    batches: { type: "string", default: "5" },
    "warm-up-seconds": { type: "string", default: "60" },
    /** A directory: each measurement is run under `node --cpu-prof` and leaves its profile there. */
    "cpu-prof": { type: "string" }
  }
})
const roots = (flags.root ?? [join(BENCH, "..")]).map((root) => resolve(root))

const target = sqliteTarget()
const seeded = await seed(target, { auditRecords: 2_000, insights: 2_000, usageRecords: 0 })
const scratch = mkdtempSync(join(tmpdir(), "costline-cpu-"))
const results: Array<{ scenario: string; root: string; median_us: number }> = []
try {
  for (const scenario of flags.scenarios.split(",")) {
    for (let round = 0; round < Number(flags.rounds); round++) {
      for (const root of roots) {
        // A copy per run: patches change the data, and each run starts from the same file.
        const filename = join(scratch, `run.db`)
        rmSync(filename, { force: true })
        copyFileSync(target.filename, filename)
        const job = {
          root, scenario, filename, token: seeded.token, organization: ORGANIZATION, insightIds: seeded.insightIds,
          batch: Number(flags.batch), batches: Number(flags.batches), warmUpSeconds: Number(flags["warm-up-seconds"])
        }
        const profile = flags["cpu-prof"] === undefined
          ? []
          : ["--cpu-prof", "--cpu-prof-dir", resolve(flags["cpu-prof"]), "--cpu-prof-name", `${scenario}-${round}-${roots.indexOf(root)}.cpuprofile`]
        const run = spawnSync(process.execPath, [...profile, join(BENCH, "cpu-run.mjs"), JSON.stringify(job)], {
          encoding: "utf8",
          stdio: ["ignore", "ignore", "pipe"],
          maxBuffer: 64 * 1024 * 1024
        })
        const line = run.stderr.trim().split("\n").at(-1) ?? ""
        if (run.status !== 0) throw new Error(`${scenario} on ${root} failed:\n${run.stderr.slice(-2000)}`)
        process.stderr.write(line + "\n")
        results.push(JSON.parse(line))
      }
    }
  }
} finally {
  rmSync(scratch, { recursive: true, force: true })
  await target.dispose()
}
const summary = flags.scenarios.split(",").map((scenario) => ({
  scenario,
  ...Object.fromEntries(roots.map((root) => [root, results.filter((r) => r.scenario === scenario && r.root === root).map((r) => r.median_us)]))
}))
console.log(JSON.stringify(summary, null, 1))
