// @ts-check
/**
 * The peer: what a user might build instead of costline for the two insight reads, on Fastify 5
 * (its router, its hooks, JSON schemas compiled into the response serialiser). The same drivers,
 * the same SQL and the same key lookup as the bare baseline (whose modules it shares), so that
 * costline / peer says what costline's framework costs against a common framework's, not
 * against none.
 *
 *   node bench/peer/server.mjs --database sqlite:/path/to.db --port 8082
 *
 * Serves `GET /v2/insights` (first page, `status__in`, `max_results`) and `GET /v2/insights/:id`.
 */
import Fastify from "fastify"
import { parseArgs } from "node:util"
import { authorise, pageTokens } from "../baseline/auth.mjs"
import { BY_ID, FIRST_PAGE_BY_STATUS, toInsight } from "../baseline/routes/insights.mjs"
import { openStore } from "../baseline/stores.mjs"

const { values } = parseArgs({ options: { database: { type: "string" }, port: { type: "string", default: "0" } } })
if (values.database === undefined) throw new Error("--database is required")
const store = openStore(values.database)
const tokens = await pageTokens(store)

const text = { type: ["string", "null"] }
/** An insight as the API answers it; fast-json-stringify writes exactly these fields. */
const insightSchema = {
  type: "object",
  properties: {
    id: { type: "string" },
    insight_type: text,
    title: text,
    description: text,
    status: text,
    assignee: text,
    is_current: { type: "boolean" },
    severity: text,
    resource_type: text,
    resource_id: text,
    dw_id: text,
    connection_id: text,
    potential_savings: { type: ["number", "null"] },
    details: {},
    create_time: text,
    update_time: text,
    first_viewed_by: text,
    last_viewed_by: text,
    first_viewed_at: text,
    last_viewed_at: text,
    view_count: { type: "integer" },
    etag: text
  }
}
const pageSchema = {
  type: "object",
  properties: { items: { type: "array", items: insightSchema }, page_token: text, row_count: { type: "integer" } }
}

/** @typedef {{ tenant: string, changedBy: string }} Caller */
const app = Fastify({ logger: false })
app.decorateRequest("caller", null)

app.addHook("onRequest", async (request, reply) => {
  const caller = await authorise(store, request.raw)
  if (caller === undefined) {
    reply.code(401)
    return reply.send({ detail: "unauthorised" })
  }
  /** @type {any} */ (request).caller = caller
})

app.get("/v2/insights/:id", {
  schema: {
    params: { type: "object", properties: { id: { type: "string", format: "uuid" } }, required: ["id"] },
    response: { 200: insightSchema, 404: { type: "object", properties: { detail: { type: "string" } } } }
  }
}, async (request, reply) => {
  const { tenant } = /** @type {Caller} */ (/** @type {any} */ (request).caller)
  const { id } = /** @type {{ id: string }} */ (request.params)
  const [row] = await store.all(BY_ID, [tenant, id])
  if (row === undefined) return reply.code(404).send({ detail: "Not Found" })
  return reply.header("etag", row.etag).send(toInsight(row))
})

app.get("/v2/insights", {
  schema: {
    querystring: {
      type: "object",
      properties: { status__in: { type: "string" }, max_results: { type: "integer", minimum: 1, maximum: 1000, default: 50 } }
    },
    response: { 200: pageSchema }
  }
}, async (request) => {
  const { tenant } = /** @type {Caller} */ (/** @type {any} */ (request).caller)
  const query = /** @type {{ status__in?: string, max_results: number }} */ (request.query)
  const limit = query.max_results
  const rows = await store.all(FIRST_PAGE_BY_STATUS, [tenant, query.status__in, limit + 1])
  const items = rows.slice(0, limit).map(toInsight)
  const last = items.at(-1)
  const page_token = rows.length > limit && last !== undefined
    ? tokens.encode(tenant, "insights:create_time:desc", JSON.stringify([last.create_time, last.id]))
    : null
  return { items, page_token, row_count: items.length }
})

const address = await app.listen({ port: Number(values.port), host: "127.0.0.1" })
console.log(`peer listening on ${address}`)
const stop = () => void app.close().then(() => store.close()).then(() => process.exit(0))
process.on("SIGTERM", stop)
process.on("SIGINT", stop)
