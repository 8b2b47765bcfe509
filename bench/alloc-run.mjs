// @ts-check
/**
 * Bytes allocated per request, and where: V8's sampling heap profiler, keeping the objects young
 * and old collections freed (what a request allocates, not what it retains), over a scenario
 * served through a build's node handler after a warm-up. Writes a report (per file, per
 * allocating function, and the callers of the built-ins that allocate: `Map`, `set`, iterator
 * `next`…) to `job.out` and prints one JSON line on stderr. Run through `bench/cpu.ts --alloc
 * <dir>`. Allocation drives the garbage collector's share of a request's CPU (issue 19); like
 * interpreter steps it does not depend on the machine's load.
 */
import { writeFileSync } from "node:fs"
import { Session } from "node:inspector/promises"
import { servedScenario } from "./lib/inprocess.mjs"

const job = JSON.parse(process.argv[2] ?? "{}")
const { once } = await servedScenario(job, 2000)

const session = new Session()
session.connect()
await session.post("HeapProfiler.enable")
await session.post("HeapProfiler.startSampling", {
  samplingInterval: 256,
  includeObjectsCollectedByMinorGC: true,
  includeObjectsCollectedByMajorGC: true
})
const requests = 2000
for (let i = 0; i < requests; i++) await once()
const { profile } = await session.post("HeapProfiler.stopSampling")
session.disconnect()

/** @typedef {{ callFrame: { functionName: string, url: string, lineNumber: number }, selfSize: number, children: Array<Node> }} Node */
/** @param {{ functionName: string, url: string, lineNumber: number }} frame */
const nameOf = (frame) => `${frame.functionName || "(anonymous)"} ${frame.url.split("/").slice(-2).join("/")}:${frame.lineNumber + 1}`
/** @param {string} url */
const fileOf = (url) => url.split("node_modules/").at(-1)?.split("packages/").at(-1) ?? url
const byFile = new Map(), byFunction = new Map(), builtinCallers = new Map()
let total = 0
/** @param {Map<string, number>} map @param {string} key @param {number} bytes */
const add = (map, key, bytes) => map.set(key, (map.get(key) ?? 0) + bytes)
/** @param {Node} node @param {Array<Node["callFrame"]>} stack */
const walk = (node, stack) => {
  const frame = node.callFrame
  total += node.selfSize
  add(byFile, fileOf(frame.url) || `(${frame.functionName || "native"})`, node.selfSize)
  add(byFunction, nameOf(frame), node.selfSize)
  // A built-in (no script) is charged to the three frames that called it.
  if (frame.url === "" && node.selfSize > 0) {
    add(builtinCallers, `${frame.functionName || "(native)"} ⇐ ${stack.slice(-3).reverse().map(nameOf).join(" ⇐ ")}`, node.selfSize)
  }
  for (const child of node.children) walk(child, [...stack, frame])
}
walk(/** @type {Node} */ (profile.head), [])
/** @param {Map<string, number>} map @param {number} n */
const top = (map, n) =>
  [...map.entries()].sort((a, b) => b[1] - a[1]).slice(0, n)
    .map(([key, bytes]) => `${String(Math.round(bytes / requests)).padStart(8)} B ${(100 * bytes / total).toFixed(1).padStart(5)}%  ${key}`)
    .join("\n")
const perRequest = Math.round(total / requests)
writeFileSync(job.out, [
  `${job.scenario} (${job.root}): ${perRequest} bytes allocated per request (sampled every 256 bytes over ${requests} requests)`,
  "", "By file:", top(byFile, 30), "", "By allocating function:", top(byFunction, 40), "", "Built-ins, by caller:", top(builtinCallers, 30), ""
].join("\n"))
process.stderr.write(JSON.stringify({ scenario: job.scenario, root: job.root, bytes_per_request: perRequest, out: job.out }) + "\n")
process.exit(0)
