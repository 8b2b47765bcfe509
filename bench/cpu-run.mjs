// @ts-check
/**
 * One measurement of `bench/cpu.ts`, in a process of its own (plain Node, so the packages run
 * as built): costline's node handler over a seeded SQLite file, driven with light-my-request
 * (no sockets), one request at a time; the process's CPU time per request over batches, once
 * it is steady. Arguments: a JSON object (see cpu.ts). Prints one JSON line on stderr; stdout
 * carries the access log.
 */
import { answer, handlerOf, requestsOf } from "./lib/inprocess.mjs"
import { isSteadyJs } from "./lib/steady.mjs"

const job = JSON.parse(process.argv[2] ?? "{}")
const next = requestsOf(job)
const handler = await handlerOf(job.root, job.filename, job.options)
const once = () => answer(handler, next(), job.scenario)
const perRequest = async () => {
  const before = process.cpuUsage()
  for (let i = 0; i < job.batch; i++) await once()
  const used = process.cpuUsage(before)
  return (used.user + used.system) / job.batch
}

/** @type {Array<number>} */
const samples = []
const deadline = performance.now() + job.warmUpSeconds * 1000
while (!isSteadyJs(samples, 3, 0.05) && performance.now() < deadline) samples.push(await perRequest())
/** @type {Array<number>} */
const measured = []
for (let i = 0; i < job.batches; i++) measured.push(await perRequest())
const sorted = [...measured].sort((a, b) => a - b)
process.stderr.write(JSON.stringify({
  scenario: job.scenario,
  root: job.root,
  warm_up: samples.map(Math.round),
  cpu_us: measured.map(Math.round),
  median_us: Math.round(/** @type {number} */ (sorted[Math.floor(sorted.length / 2)]))
}) + "\n")
await handler.dispose()
process.exit(0)
