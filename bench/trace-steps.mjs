// @ts-check
/**
 * Which effect each interpreter step of one request ran: the op and, for a continuation or a
 * sync/suspend, the source of the function it called (its first 120 characters). The steps of
 * `steps.mjs` (`bench/cpu.ts --steps`) say how many; this says where they come from, e.g. the
 * ~23-step acquire-use-release of every `Effect.locally`/`provideService`, or `@effect/sql`'s span
 * and scope around a statement. Serves one request of the scenario after a warm-up and writes
 * the trace, one step per line, to `job.out`. Run through `bench/cpu.ts --trace <dir>`.
 */
import { writeFileSync } from "node:fs"
import { fiberRuntimeOf, onEveryStep, servedScenario } from "./lib/inprocess.mjs"

const job = JSON.parse(process.argv[2] ?? "{}")
const FiberRuntime = await fiberRuntimeOf(job.root)

const { handler, once } = await servedScenario(job, 50)

/** @type {Array<string>} */
const trace = []
/** @param {any} op */
const describe = (op) => {
  const f = op.effect_instruction_i1 ?? op.effect_instruction_i0
  return typeof f === "function" ? f.toString().replace(/\s+/g, " ").slice(0, 120) : ""
}
onEveryStep(FiberRuntime, (name, op) => trace.push(`${name} | ${describe(op)}`))
await once()
writeFileSync(job.out, trace.map((line, index) => `${index + 1}\t${line}`).join("\n") + "\n")
process.stderr.write(JSON.stringify({ scenario: job.scenario, root: job.root, steps: trace.length, trace: job.out }) + "\n")
await handler.dispose()
process.exit(0)
