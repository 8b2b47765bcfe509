// @ts-check
/**
 * The Effect floor: the bare baseline's work (its routes, SQL, credential check and answer:
 * `../baseline/app.mjs`), each request run as one Effect fiber forked from the node callback
 * and answered from the fiber's exit, the way costline serves (`routing/NodeServing.ts`) — and
 * nothing else: no schemas, no middleware, no layers, no platform. What it costs over the bare
 * baseline is the least any server whose request is an Effect pays here; costline / floor is
 * then what costline's own request path costs on top of its runtime.
 *
 *   node bench/floor/server.mjs --database sqlite:/path/to.db --port 8083
 *
 * Prints `floor listening on http://…` once it accepts connections.
 */
import { Effect, Exit } from "effect"
import { createServer } from "node:http"
import { parseArgs } from "node:util"
import { listen, makeApp, send } from "../baseline/app.mjs"
import { pageTokens } from "../baseline/auth.mjs"
import { openStore } from "../baseline/stores.mjs"
import { makeAnswer } from "./answer.mjs"

const { values } = parseArgs({ options: { database: { type: "string" }, port: { type: "string", default: "0" } } })
if (values.database === undefined) throw new Error("--database is required")
const store = openStore(values.database)
const app = makeApp(store, await pageTokens(store))

const answer = makeAnswer(Effect, app)

const server = createServer((request, response) => {
  const fiber = Effect.runFork(answer(request))
  fiber.addObserver((exit) =>
    send(response, Exit.isSuccess(exit) ? exit.value : { status: 500, body: { detail: String(exit.cause) } }))
})

listen(server, Number(values.port), "floor", store)
