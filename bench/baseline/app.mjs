// @ts-check
/**
 * The baseline's request handling, apart from its server: the route table, the credential check
 * and the answer, shared by the bare server (`server.mjs`) and the Effect floor
 * (`../floor/server.mjs`), which runs the same steps as one Effect fiber per request.
 */
import { authorise } from "./auth.mjs"
import { exportAuditLogs } from "./routes/audit.mjs"
import { getInsight, listInsights, patchInsight, queryInsights } from "./routes/insights.mjs"
import { usageAttribution } from "./routes/usage.mjs"

/**
 * @typedef {{ status: number, body?: unknown, headers?: Record<string, string> }} Reply
 * @typedef {Awaited<ReturnType<typeof import("./auth.mjs").pageTokens>>} Tokens
 * @typedef {{ store: import("./stores.mjs").Store, tokens: Tokens, tenant: string, changedBy: string, url: URL, id: string | undefined, request: import("node:http").IncomingMessage, body: () => Promise<any> }} Context
 * @typedef {(context: Context) => Promise<Reply>} Route
 * @typedef {{ reply: Reply } | { route: Route, url: URL, id: string | undefined }} Resolved
 */

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
export const send = (response, reply) => {
  const text = reply.body === undefined ? "" : JSON.stringify(reply.body)
  response.writeHead(reply.status, { "content-type": "application/json", "content-length": Buffer.byteLength(text), ...reply.headers })
  response.end(text)
}

/** @param {import("./stores.mjs").Store} store @param {Tokens} tokens */
export const makeApp = (store, tokens) => {
  /** Which route a request is for, or the answer when it needs none. @param {import("node:http").IncomingMessage} request @returns {Resolved} */
  const resolve = (request) => {
    const url = new URL(request.url ?? "/", "http://baseline")
    // As costline's: no credential, no store (the usage_attribution probe asks it meanwhile).
    if (url.pathname === "/healthz") return { reply: { status: 200, body: { status: "ok" } } }
    const { template, id } = templateOf(url.pathname)
    const route = routes[`${request.method} ${template}`]
    if (route === undefined) return { reply: { status: 404, body: { detail: "Not Found" } } }
    return { route, url, id }
  }
  /** @param {import("node:http").IncomingMessage} request */
  const authorised = (request) => authorise(store, request)
  /** @type {Reply} */
  const unauthorised = { status: 401, body: { detail: "unauthorised" } }
  /**
   * The route's answer for an authorised caller.
   * @param {{ route: Route, url: URL, id: string | undefined }} resolved
   * @param {{ tenant: string, changedBy: string }} caller
   * @param {import("node:http").IncomingMessage} request
   */
  const run = (resolved, caller, request) =>
    resolved.route({ store, tokens, ...caller, url: resolved.url, id: resolved.id, request, body: () => readBody(request) })
  return {
    resolve,
    authorised,
    unauthorised,
    run
  }
}

/**
 * Listens on 127.0.0.1, prints `<name> listening on http://…` once it accepts connections, and
 * stops (server, then store) on SIGTERM or SIGINT.
 * @param {import("node:http").Server} server @param {number} port @param {string} name @param {import("./stores.mjs").Store} store
 */
export const listen = (server, port, name, store) => {
  server.listen(port, "127.0.0.1", () => {
    const address = /** @type {import("node:net").AddressInfo} */ (server.address())
    console.log(`${name} listening on http://127.0.0.1:${address.port}`)
  })
  const stop = () => server.close(() => void store.close().then(() => process.exit(0)))
  process.on("SIGTERM", stop)
  process.on("SIGINT", stop)
}
