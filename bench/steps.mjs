// @ts-check
/**
 * Work per request that does not depend on the machine's load: Effect interpreter steps (op
 * dispatches of the fiber run loop), FiberRef writes and fibers started, counted by wrapping the
 * methods of the build's own `FiberRuntime`. Serves one scenario through a build's node handler
 * (`makeHandler`, light-my-request, over a seeded SQLite file) after a warm-up; prints one JSON
 * line on stderr. Run through `bench/cpu.ts --steps`. CPU time swings with whatever else the
 * machine runs; these counts do not, so they show what a change removed from every request.
 */
import { fiberRuntimeOf, onEveryStep, servedScenario } from "./lib/inprocess.mjs"

const job = JSON.parse(process.argv[2] ?? "{}")
const FiberRuntime = await fiberRuntimeOf(job.root)

const { handler, once } = await servedScenario(job, 50)

const counts = { steps: 0, fiber_ref_writes: 0, fibers: 0 }
const proto = FiberRuntime.prototype
onEveryStep(FiberRuntime, () => counts.steps++)
const wrap = (/** @type {string} */ name, /** @type {keyof typeof counts} */ counter) => {
  const original = proto[name]
  proto[name] = function(/** @type {Array<unknown>} */ ...args) {
    counts[counter]++
    return original.apply(this, args)
  }
}
wrap("setFiberRef", "fiber_ref_writes")
wrap("start", "fibers")
const requests = 200
for (let i = 0; i < requests; i++) await once()
process.stderr.write(JSON.stringify({
  scenario: job.scenario,
  root: job.root,
  steps: Math.round(counts.steps / requests),
  fiber_ref_writes: Math.round(counts.fiber_ref_writes / requests),
  fibers: Math.round(counts.fibers / requests)
}) + "\n")
await handler.dispose()
process.exit(0)
