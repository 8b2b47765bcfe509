// @ts-check
/**
 * The bare baseline: node:http, the database driver, JSON.stringify. It answers the benchmark's
 * requests exactly as costline's server must (same authentication query, same SQL, same indexes,
 * same response body) with nothing else, so `costline / baseline` is what the framework, the
 * schemas and the layers cost.
 *
 *   node bench/baseline/server.mjs --database sqlite:/path/to.db --port 8081
 *   node bench/baseline/server.mjs --database postgres://… --port 8081
 *
 * Prints `baseline listening on http://…` once it accepts connections.
 */
import { createServer } from "node:http"
import { parseArgs } from "node:util"
import { authorise, pageTokens } from "./auth.mjs"
import { exportAuditLogs } from "./routes/audit.mjs"
import { getInsight, listInsights, patchInsight, queryInsights } from "./routes/insights.mjs"
import { usageAttribution } from "./routes/usage.mjs"
import { openStore } from "./stores.mjs"

/**
 * @typedef {{ status: number, body?: unknown, headers?: Record<string, string> }} Reply
 * @typedef {{ store: import("./stores.mjs").Store, tokens: Awaited<ReturnType<typeof pageTokens>>, tenant: string, changedBy: string, url: URL, id: string | undefined, request: import("node:http").IncomingMessage, body: () => Promise<any> }} Context
 * @typedef {(context: Context) => Promise<Reply>} Route
 */

const { values } = parseArgs({ options: { database: { type: "string" }, port: { type: "string", default: "0" } } })
if (values.database === undefined) throw new Error("--database is required")
const store = openStore(values.database)
const tokens = await pageTokens(store)

/** `METHOD /path` → route; `:id` is the one path parameter the benchmark needs. */
const routes = /** @type {Record<string, Route>} */ ({
  "GET /v2/audit-logs": exportAuditLogs,
  "GET /v2/insights": listInsights,
  "POST /v2/insights/actions/query": queryInsights,
  "GET /v2/insights/:id": getInsight,
  "PATCH /v2/insights/:id": patchInsight,
  "GET /v2/usage-group-sets/:id/attribution": usageAttribution
})

/** Paths with an id, and the route template each stands for. */
const ID_PATHS = /** @type {Array<[RegExp, string]>} */ ([
  [/^\/v2\/insights\/([0-9a-f-]{36})$/, "/v2/insights/:id"],
  [/^\/v2\/usage-group-sets\/([0-9a-f-]{36})\/attribution$/, "/v2/usage-group-sets/:id/attribution"]
])

/** The route template of a path, and its id if it has one. @param {string} path */
const templateOf = (path) => {
  for (const [pattern, template] of ID_PATHS) {
    const id = pattern.exec(path)?.[1]
    if (id !== undefined) return { template, id }
  }
  return { template: path, id: undefined }
}

const readBody = (/** @type {import("node:http").IncomingMessage} */ request) =>
  new Promise((resolve, reject) => {
    /** @type {Array<Buffer>} */
    const chunks = []
    request.on("data", (chunk) => chunks.push(chunk))
    request.on("end", () => resolve(chunks.length === 0 ? undefined : JSON.parse(Buffer.concat(chunks).toString("utf8"))))
    request.on("error", reject)
  })

/** @param {import("node:http").ServerResponse} response @param {Reply} reply */
const send = (response, reply) => {
  const text = reply.body === undefined ? "" : JSON.stringify(reply.body)
  response.writeHead(reply.status, { "content-type": "application/json", "content-length": Buffer.byteLength(text), ...reply.headers })
  response.end(text)
}

const server = createServer(async (request, response) => {
  try {
    const url = new URL(request.url ?? "/", "http://baseline")
    // As costline's: no credential, no store (the usage_attribution probe asks it meanwhile).
    if (url.pathname === "/healthz") return send(response, { status: 200, body: { status: "ok" } })
    const { template, id } = templateOf(url.pathname)
    const route = routes[`${request.method} ${template}`]
    if (route === undefined) return send(response, { status: 404, body: { detail: "Not Found" } })
    const caller = await authorise(store, request)
    if (caller === undefined) return send(response, { status: 401, body: { detail: "unauthorised" } })
    send(response, await route({ store, tokens, ...caller, url, id, request, body: () => readBody(request) }))
  } catch (error) {
    send(response, { status: 500, body: { detail: String(error) } })
  }
})

server.listen(Number(values.port), "127.0.0.1", () => {
  const address = /** @type {import("node:net").AddressInfo} */ (server.address())
  console.log(`baseline listening on http://127.0.0.1:${address.port}`)
})
const stop = () => server.close(() => void store.close().then(() => process.exit(0)))
process.on("SIGTERM", stop)
process.on("SIGINT", stop)
