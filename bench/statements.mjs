// @ts-check
/**
 * The SQL one request issues: serves one scenario through a build's node handler (as `steps.mjs`
 * does), then lists every statement the driver ran for the next request, in order, with their
 * count (BEGIN, SAVEPOINT and COMMIT included). SQLite: each execution of a better-sqlite3
 * statement; Postgres: each node-postgres `Client.query`. Prints one JSON line on stderr. Run
 * through `bench/cpu.ts --statements`; the count, like the steps, does not depend on the load.
 */
import { createRequire } from "node:module"
import { join } from "node:path"
import { servedScenario } from "./lib/inprocess.mjs"

const job = JSON.parse(process.argv[2] ?? "{}")
/** @type {Array<string> | undefined} */
let log = undefined
const note = (/** @type {string} */ text) => log?.push(text.replace(/\s+/g, " ").trim())

// The drivers as the build resolves them (one module instance: CommonJS modules are cached by path).
if (job.filename.startsWith("postgres://")) {
  const require = createRequire(join(job.root, "packages/store-pg/dist/index.js"))
  const pg = require(require.resolve("pg", { paths: [require.resolve("@effect/sql-pg")] }))
  const query = pg.Client.prototype.query
  pg.Client.prototype.query = function(/** @type {any} */ config, /** @type {Array<any>} */ ...rest) {
    note(typeof config === "string" ? config : String(config?.text ?? config?.cursor?.text ?? config))
    return query.call(this, config, ...rest)
  }
} else {
  const require = createRequire(join(job.root, "packages/store-sqlite/dist/index.js"))
  const Sqlite = require("better-sqlite3")
  const probe = new Sqlite(":memory:")
  const proto = Object.getPrototypeOf(probe.prepare("SELECT 1"))
  probe.close()
  for (const method of ["run", "get", "all", "iterate"]) {
    const original = proto[method]
    proto[method] = function(/** @type {Array<unknown>} */ ...args) {
      note(this.source)
      return original.apply(this, args)
    }
  }
}

const { handler, once } = await servedScenario(job, 20)
log = []
await once()
const statements = log
log = undefined
process.stderr.write(JSON.stringify({ scenario: job.scenario, root: job.root, count: statements.length, statements }) + "\n")
await handler.dispose()
process.exit(0)
