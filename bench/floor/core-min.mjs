// @ts-check
/**
 * The least costline server: costline's own core and store doing an insight read — core's `Auth`
 * with its verified keys and credential stamp, the tenant and permission checks, `Insights.get`
 * through the store's statement runner, the compiled encoder, the ETag, a request id and an
 * access-log line — with the thinnest HTTP around it: a node callback that authenticates in plain
 * code and forks one fiber for the service call. What costline's request would cost if its HTTP
 * layer (pipeline, route table, platform request, middlewares) cost nothing: the bound under any
 * redesign of the serving path, against the bare baseline's work (`bench/floor/runtime-steps.mjs
 * --layers 0`) and costline itself.
 *
 *   npx vite-node bench/served-ab.ts -- --connections 64 --side '{}' --side '{"costline":"bench/floor/core-min.mjs"}' \
 *     --side '{"costline":"bench/floor/runtime-steps.mjs","env":{"FLOOR_LAYERS":"0"}}'
 *
 * Serves `GET /v2/insights/{id}` and `GET /v2/insights?…` (SQLite; the list's parameters decoded
 * by its schema, as costline's route does); every other path answers 200 `{}` (the benchmark's
 * readiness probe). The permission check (a map lookup and a role test, plain code in costline
 * too) is left out. A first argument `serve` is ignored, as `bench/served-ab.ts` starts it.
 */
import { createServer } from "node:http"
import { randomUUID } from "node:crypto"
import { parseArgs } from "node:util"
import { Auth, Core, Insight, Insights, Secrets } from "@costline/core"
import { SqliteStore } from "@costline/store-sqlite"
import { Cause, Effect, Either, Exit, Layer, ManagedRuntime, Option, Runtime, Schema } from "effect"
import { CostlineApi } from "../../packages/http/dist/api/Api.js"
import * as CompiledEncoder from "../../packages/http/dist/api/CompiledEncoder.js"
import { toPage } from "../../packages/http/dist/api/Pages.js"
import { InsightsParams, toListQuery } from "../../packages/http/dist/api/insights/Params.js"
import { normalizeQuery } from "../../packages/http/dist/routing/UrlParams.js"
import * as QueryString from "find-my-way-ts/QueryString"

const { values } = parseArgs({
  allowPositionals: true,
  options: { database: { type: "string" }, port: { type: "string", default: "0" } }
})
if (values.database === undefined || !values.database.startsWith("sqlite:")) throw new Error("--database sqlite:<file> is required")

const services = Core.layerWithSecrets.pipe(
  Layer.provideMerge(Layer.merge(SqliteStore.layer({ filename: values.database.slice("sqlite:".length) }), Secrets.Secrets.layerFromConfigOrEphemeral)),
  Layer.provide(Layer.setTracerEnabled(false))
)
const runtime = await ManagedRuntime.make(services).runtime()
const auth = Runtime.runSync(runtime)(Auth.Auth)
const insights = Runtime.runSync(runtime)(Insights.Insights)
const runFork = Runtime.runFork(runtime)
const encode = CompiledEncoder.encodeSuccess(Insight.Insight)
const encodePage = CompiledEncoder.encodeSuccess(CostlineApi.groups.insights.endpoints.listInsights.successSchema)
const decodeListParams = Schema.decodeUnknownEither(InsightsParams)

/** One access-log line per request, written in batches as costline's are. */
let pending = ""
const log = (/** @type {object} */ fields) => {
  if (pending === "") setTimeout(() => { process.stdout.write(pending); pending = "" }, 10)
  pending += JSON.stringify({ level: "INFO", message: "request served", time: new Date().toISOString(), ...fields }) + "\n"
}

/**
 * @param {import("node:http").ServerResponse} res
 * @param {number} status
 * @param {string} text
 * @param {Record<string, string>} headers
 */
const send = (res, status, text, headers) => {
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text), ...headers }).end(text)
}

/** A failed request's status (its body is left empty: only successes are compared and measured). */
const STATUS = { Unauthorized: 401, Forbidden: 403, NotFound: 404 }
/**
 * @param {import("node:http").ServerResponse} res
 * @param {import("effect").Cause.Cause<unknown>} cause
 * @param {string} requestId
 */
const refuse = (res, cause, requestId) => {
  const failure = Cause.failureOption(cause)
  const tag = Option.isSome(failure) && typeof failure.value === "object" && failure.value !== null && "_tag" in failure.value ? String(failure.value._tag) : ""
  send(res, STATUS[/** @type {keyof typeof STATUS} */ (tag)] ?? 500, "{}", { "x-request-id": requestId })
}

const PREFIX = "/v2/insights/"
const LIST = "/v2/insights?"

/** The caller, answered from the verified keys when it can be (every request after the key's first). */
const callerOf = (/** @type {import("node:http").IncomingMessage} */ req, /** @type {number} */ now) => {
  const principal = auth.authenticateCached(req.headers.authorization, now)
  const caller = principal !== undefined ? Effect.succeed(principal) : auth.authenticate(req.headers.authorization)
  return Effect.filterOrFail(caller, (principal) => principal.organizationId === req.headers["x-tenant-id"], () => ({ _tag: "Forbidden" }))
}

const server = createServer((req, res) => {
  const started = Date.now()
  const requestId = randomUUID()
  const url = req.url ?? "/"
  if (req.method === "GET" && url.startsWith(LIST)) {
    const params = decodeListParams(normalizeQuery(QueryString.parse(url.slice(LIST.length)), InsightsParams.ast))
    if (Either.isLeft(params)) return send(res, 422, "{}", { "x-request-id": requestId })
    const fiber = runFork(Effect.flatMap(callerOf(req, started), (principal) => insights.list(principal.organizationId, toListQuery(params.right))))
    return fiber.addObserver((exit) => {
      if (Exit.isFailure(exit)) return refuse(res, exit.cause, requestId)
      send(res, 200, JSON.stringify(encodePage(toPage(exit.value, (item) => item))), { "x-request-id": requestId })
      log({ request_id: requestId, method: "GET", route: "/v2/insights", status: 200, duration_ms: Date.now() - started })
    })
  }
  if (req.method !== "GET" || !url.startsWith(PREFIX)) return send(res, 200, "{}", { "x-request-id": requestId })
  const id = Insights.parseInsightId(url.slice(PREFIX.length))
  if (Either.isLeft(id)) return send(res, 404, "{}", { "x-request-id": requestId })
  const fiber = runFork(Effect.flatMap(callerOf(req, started), (principal) => insights.get(principal.organizationId, id.right)))
  fiber.addObserver((exit) => {
    if (Exit.isFailure(exit)) return refuse(res, exit.cause, requestId)
    const insight = exit.value
    send(res, 200, JSON.stringify(encode(insight)), { etag: insight.etag, "x-request-id": requestId })
    log({ request_id: requestId, method: "GET", route: "/v2/insights/:insight_id", status: 200, duration_ms: Date.now() - started })
  })
})

server.listen(Number(values.port), "127.0.0.1", () => {
  const address = server.address()
  process.stdout.write(`core-min listening on http://127.0.0.1:${typeof address === "object" && address !== null ? address.port : values.port}\n`)
})
const stop = () => server.close(() => process.exit(0))
process.on("SIGTERM", stop)
process.on("SIGINT", stop)
