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
import { listen, makeApp, send } from "./app.mjs"
import { pageTokens } from "./auth.mjs"
import { openStore } from "./stores.mjs"

// A first argument `serve` is ignored, so that `bench/served-ab.ts` can start it as it starts costline.
const { values } = parseArgs({ allowPositionals: true, options: { database: { type: "string" }, port: { type: "string", default: "0" } } })
if (values.database === undefined) throw new Error("--database is required")
const store = openStore(values.database)
const app = makeApp(store, await pageTokens(store))

const server = createServer(async (request, response) => {
  try {
    const resolved = app.resolve(request)
    if ("reply" in resolved) return send(response, resolved.reply)
    const caller = await app.authorised(request)
    send(response, caller === undefined ? app.unauthorised : await app.run(resolved, caller, request))
  } catch (error) {
    send(response, { status: 500, body: { detail: String(error) } })
  }
})

listen(server, Number(values.port), "baseline", store)
