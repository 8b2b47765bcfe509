// @ts-check
/**
 * What a start of the API costs, counted rather than timed: Effect interpreter steps and layers
 * built (distinct layers the memo map builds) from `makeHandler` to the first answer of
 * `/healthz`, over a fresh SQLite file (or `--pg <url>`), for the build at each root given. The
 * counts do not depend on the machine's load, so they compare builds where CPU time cannot.
 *
 *   node bench/start-steps.mjs /work/main .           # A/B: main against this worktree
 *   COSTLINE_START_LAYERS=1 node bench/start-steps.mjs . 2>&1 | grep ^layer | sort | uniq -c | sort -rn
 *                                                     # each layer built, and where it was made
 *
 * Run with the repository's Node (`node_modules/.bin/node`): the SQLite addon needs Node ≥ 22.
 * A composed layer (`provide`, `merge`) is made while the graph is built, so its origin is the
 * memo map; its `Suspend`'s origin names the `pipe` that made it.
 */
import { inject } from "light-my-request"
import { onEveryStep } from "./lib/inprocess.mjs"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join, resolve } from "node:path"
import { pathToFileURL } from "node:url"
import { execFileSync } from "node:child_process"

const roots = process.argv.slice(2)
if (roots.length === 0) {
  process.stderr.write("usage: node bench/start-steps.mjs <root> [<root> …]\n")
  process.exit(2)
}
// Each build in its own process: modules (and the layers they hold) evaluated once per process.
if (roots.length > 1 || process.env.COSTLINE_START_STEPS_CHILD === undefined) {
  for (const root of roots) {
    execFileSync(process.execPath, [new URL(import.meta.url).pathname, resolve(root)], {
      stdio: "inherit",
      env: { ...process.env, COSTLINE_START_STEPS_CHILD: "1" }
    })
  }
  process.exit(0)
}
const root = roots[0] ?? "."
const effectModule = (/** @type {string} */ name) =>
  import(pathToFileURL(join(root, "node_modules/effect/dist/esm/internal", name)).href)
const { FiberRuntime } = await effectModule("fiberRuntime.js")
const layerModule = await effectModule("layer.js")

if (process.env.COSTLINE_START_LAYERS) {
  Error.stackTraceLimit = 30
  // Where each composed layer was made: a setter on the layers' prototype sees `_op_layer` assigned.
  const proto = Object.getPrototypeOf(layerModule.empty)
  Object.defineProperty(proto, "_op_layer", {
    configurable: true,
    set(/** @type {string} */ value) {
      Object.defineProperty(this, "_op_layer", { value, writable: true, enumerable: true, configurable: true })
      this.__made = (new Error().stack ?? "").split("\n").slice(2).find((line) => !line.includes("/node_modules/effect/") && !line.includes("Pipeable") && !line.includes("pipe (") && !line.includes("start-steps.mjs"))?.trim()
    }
  })
}

const counts = { steps: 0, layers: 0 }
onEveryStep(FiberRuntime, () => counts.steps++)
// Every layer the memo map builds (not the cache hits): the MemoMap's class is not exported, so
// found through a map made by the build's `effect`.
const memoMapProto = Object.getPrototypeOf(layerModule.unsafeMakeMemoMap())
const getOrElseMemoize = memoMapProto.getOrElseMemoize
/** @type {WeakSet<object>} */
const seen = new WeakSet()
memoMapProto.getOrElseMemoize = function(/** @type {{ _op_layer?: string, __made?: string }} */ layer, /** @type {unknown} */ scope) {
  if (!seen.has(layer)) {
    seen.add(layer)
    counts.layers++
    if (process.env.COSTLINE_START_LAYERS) process.stderr.write(`layer ${layer._op_layer} ${layer.__made ?? ""}\n`)
  }
  return getOrElseMemoize.call(this, layer, scope)
}

const directory = mkdtempSync(join(tmpdir(), "costline-start-steps-"))
try {
  const http = await import(pathToFileURL(join(root, "packages/http/dist/index.js")).href)
  const { SqliteStore } = await import(pathToFileURL(join(root, "packages/store-sqlite/dist/index.js")).href)
  const started = process.cpuUsage()
  const handler = http.makeHandler({ store: SqliteStore.layer({ filename: join(directory, "start.db") }), rateLimit: false, accessLog: true })
  const answer = await inject(handler, { method: "GET", url: "/healthz" })
  const cpu = process.cpuUsage(started)
  if (answer.statusCode !== 200) throw new Error(`/healthz: ${answer.statusCode} ${answer.payload.slice(0, 300)}`)
  process.stdout.write(JSON.stringify({ root, ...counts, cpu_ms: Math.round((cpu.user + cpu.system) / 1000) }) + "\n")
  await handler.dispose()
} finally {
  rmSync(directory, { recursive: true, force: true })
}
process.exit(0)
