// @ts-check
/**
 * What the in-process measurements (`cpu-run.mjs`, `cpu-pair.mjs`, `steps.mjs`) share: the
 * requests of each scenario, and a build's node handler over a seeded SQLite file, driven with
 * light-my-request (no sockets).
 */
import { inject } from "light-my-request"
import { join } from "node:path"
import { pathToFileURL } from "node:url"

/**
 * The next request of `job.scenario`, as light-my-request takes it; ids rotate over the seeded insights.
 * @param {{ scenario: string, token: string, organization: string, insightIds: Array<string>, teamId: string }} job
 * @returns {() => import("light-my-request").InjectOptions}
 */
export const requestsOf = (job) => {
  const headers = { authorization: `Bearer ${job.token}`, "x-tenant-id": job.organization }
  const ids = job.insightIds
  let n = 0
  // Runs over Postgres share one database: values of this process's own, so its patches change something.
  const run = Math.random().toString(36).slice(2, 8)
  /** @type {Record<string, () => import("light-my-request").InjectOptions>} */
  const scenarios = {
    insight_get: () => ({ method: "GET", url: `/v2/insights/${ids[n++ % ids.length]}`, headers }),
    insights_list: () => ({ method: "GET", url: "/v2/insights?status__in=open&max_results=50", headers }),
    audit_export: () => ({ method: "GET", url: "/v2/audit-logs?max_results=500", headers }),
    insight_patch: () => {
      const i = n++
      return {
        method: "PATCH",
        url: `/v2/insights/${ids[i % ids.length]}`,
        headers: { ...headers, "content-type": "application/json", "if-match": "*" },
        payload: JSON.stringify({ assignee: `user${i % 97}.${run}@bench.example` })
      }
    },
    // Another resource's write, through the same conditional, audited write as insights.
    team_patch: () => ({
      method: "PATCH",
      url: `/v2/teams/${job.teamId}`,
      headers: { ...headers, "content-type": "application/json", "if-match": "*" },
      payload: JSON.stringify({ name: `Bench ${n++ % 97} ${run}` })
    }),
    healthz: () => ({ method: "GET", url: "/healthz" }),
    v1_teams: () => ({ method: "GET", url: `/api/organizations/${job.organization}/teams`, headers })
  }
  const next = scenarios[job.scenario]
  if (next === undefined) throw new Error(`unknown scenario ${job.scenario}; known: ${Object.keys(scenarios).join(", ")}`)
  return next
}

/**
 * Sends one request to `handler` and fails on an answer that is not a success; then lets the
 * event loop turn, as it does between a server's requests. node:http finishes a response in a
 * `setImmediate` (its close events), which a loop of awaited injections never reaches: without
 * the turn every request stayed reachable from the immediate queue (its fiber, request and
 * response: ~15 KB for a probe, ~97 KB for an audit page), the heap grew through the whole
 * measurement and the collector's cost with it (found 2026-11-26: an audit page measured 10–18 ms
 * in process, 3.3–4.1 ms with the turn).
 * @param {any} handler
 * @param {import("light-my-request").InjectOptions} request
 * @param {string} scenario
 */
export const answer = async (handler, request, scenario) => {
  const response = await inject(handler, request)
  if (response.statusCode >= 300) throw new Error(`${scenario}: ${response.statusCode} ${response.payload.slice(0, 300)}`)
  await new Promise((resolve) => setImmediate(resolve))
}

/**
 * Options for `makeHandler` beyond the bench's own, from `COSTLINE_BENCH_OPTIONS` (JSON), for
 * ablations: e.g. `COSTLINE_BENCH_OPTIONS='{"accessLog":false}'` measures requests without the
 * access log.
 */
const extraOptions = () => JSON.parse(process.env.COSTLINE_BENCH_OPTIONS ?? "{}")

/**
 * The node handler of the build at `root` (its built packages), over the SQLite file `filename`
 * (or the Postgres database, when it is a `postgres://` URL), with `options` for `makeHandler`
 * over those of `COSTLINE_BENCH_OPTIONS`.
 * @param {string} root
 * @param {string} filename
 * @param {Record<string, unknown>} [given]
 */
export const handlerOf = async (root, filename, given = {}) => {
  const http = await import(join(root, "packages/http/dist/index.js"))
  // JSON has no LogLevel: `"logLevel": "Warning"` names one (the access log's lines are Info).
  const options = typeof given.logLevel === "string"
    ? { ...given, logLevel: (await import(pathToFileURL(join(root, "node_modules/effect/dist/esm/LogLevel.js")).href)).fromLiteral(given.logLevel) }
    : given
  if (filename.startsWith("postgres://")) {
    const { PgStore } = await import(join(root, "packages/store-pg/dist/index.js"))
    // As `costline serve` reads it: `COSTLINE_KEY_CACHE=off` measures a request that reads its key.
    const verifiedKeyCache = process.env.COSTLINE_KEY_CACHE !== "off"
    return http.makeHandler({ store: PgStore.layer({ url: filename, verifiedKeyCache }), rateLimit: false, accessLog: true, ...extraOptions(), ...options })
  }
  const { SqliteStore } = await import(join(root, "packages/store-sqlite/dist/index.js"))
  return http.makeHandler({ store: SqliteStore.layer({ filename }), rateLimit: false, accessLog: true, ...extraOptions(), ...options })
}

/**
 * `job.scenario` served through the build's handler (`handlerOf`), warmed with `warmUp`
 * requests: `once` sends the next request and fails on an answer that is not a success.
 * @param {{ scenario: string, token: string, organization: string, insightIds: Array<string>, teamId: string, root: string, filename: string, options?: Record<string, unknown> }} job
 * @param {number} warmUp
 */
export const servedScenario = async (job, warmUp) => {
  const next = requestsOf(job)
  const handler = await handlerOf(job.root, job.filename, job.options)
  const once = () => answer(handler, next(), job.scenario)
  for (let i = 0; i < warmUp; i++) await once()
  return { handler, once }
}

/**
 * The run loop class of the `effect` instance the build at `root` uses (its internal module: ES
 * modules are cached by their resolved URL, so it is the one the build runs).
 * @param {string} root
 * @returns {Promise<any>}
 */
export const fiberRuntimeOf = async (root) =>
  (await import(pathToFileURL(join(root, "node_modules/effect/dist/esm/internal/fiberRuntime.js")).href)).FiberRuntime

/**
 * Calls `onStep` with each op the run loop of `FiberRuntime` dispatches (it dispatches an op to
 * the method named by its op code: `Sync`, `OnSuccess`, …), before running it: one interpreter
 * step each. Returns a function that puts the methods back.
 * @param {any} FiberRuntime
 * @param {(opCode: string, op: any) => void} onStep
 * @returns {() => void}
 */
export const onEveryStep = (FiberRuntime, onStep) => {
  const proto = FiberRuntime.prototype
  const saved = new Map()
  for (const name of Object.getOwnPropertyNames(proto)) {
    if (!/^[A-Z]/.test(name) || typeof proto[name] !== "function") continue
    const original = proto[name]
    saved.set(name, original)
    proto[name] = function(/** @type {unknown} */ op) {
      onStep(name, op)
      return original.call(this, op)
    }
  }
  return () => {
    for (const [name, original] of saved) proto[name] = original
  }
}
