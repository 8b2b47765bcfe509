// @ts-check
/**
 * `bench/cpu.ts --paired`: several builds in ONE process, their batches interleaved A-B-A-B
 * (each build's node handler over its own copy of the seeded SQLite file, driven with
 * light-my-request, one request at a time). Whatever else the machine does in a moment weighs on
 * the neighbouring batches of every build alike, so on a loaded machine the ratio between builds
 * is far steadier than figures taken minutes apart. Each build runs its own copy of Effect; the
 * one heap (and its garbage collector) is shared, which weighs on all alike. Arguments: a JSON
 * object (see cpu.ts) with `roots`, `filenames` and `options` (per root). Prints one JSON line on stderr.
 */
import { answer, handlerOf, requestsOf } from "./lib/inprocess.mjs"
import { isSteadyJs } from "./lib/steady.mjs"

const job = JSON.parse(process.argv[2] ?? "{}")
const roots = /** @type {Array<string>} */ (job.roots)
const next = requestsOf(job)

const handlers = []
for (const [index, root] of roots.entries()) {
  handlers.push(await handlerOf(root, job.filenames[index], job.options?.[index]))
}

/** @param {any} handler */
const perRequest = async (handler) => {
  const before = process.cpuUsage()
  for (let i = 0; i < job.batch; i++) await answer(handler, next(), job.scenario)
  const used = process.cpuUsage(before)
  return (used.user + used.system) / job.batch
}

// Warm every build until its CPU per request is steady (or the time is up), interleaved.
/** @type {Array<Array<number>>} */
const warm = roots.map(() => [])
const deadline = performance.now() + job.warmUpSeconds * 1000
while (warm.some((samples) => !isSteadyJs(samples, 3, 0.05)) && performance.now() < deadline) {
  for (const [index, handler] of handlers.entries()) warm[index]?.push(await perRequest(handler))
}
/** @type {Array<Array<number>>} */
const measured = roots.map(() => [])
for (let i = 0; i < job.batches; i++) {
  // Alternate which build goes first, so neither always follows the other's garbage.
  const order = i % 2 === 0 ? [...handlers.keys()] : [...handlers.keys()].reverse()
  for (const index of order) measured[index]?.push(await perRequest(handlers[index]))
}
/** @param {Array<number>} values */
const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b)
  return /** @type {number} */ (sorted[Math.floor(sorted.length / 2)])
}
process.stderr.write(JSON.stringify({
  scenario: job.scenario,
  roots,
  warm_up: warm.map((samples) => samples.map(Math.round)),
  cpu_us: measured.map((samples) => samples.map(Math.round)),
  median_us: measured.map((samples) => Math.round(median(samples))),
  // Per pair of neighbouring batches: each build's figure over the first build's.
  median_ratio_to_first: measured.map((samples) => Number(median(samples.map((v, i) => v / /** @type {number} */ (measured[0]?.[i]))).toFixed(3)))
}) + "\n")
for (const handler of handlers) await handler.dispose()
process.exit(0)
