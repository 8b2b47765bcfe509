// @ts-check
/**
 * The Effect floor at costline's step count, on Effect 3 or Effect 4. The bare baseline's work
 * (`../baseline/app.mjs`: its routes, SQL, credential check and answer) runs as one fiber per
 * request, forked from the node callback and answered from its exit as `server.mjs` does, and
 * the request passes through `--layers` wrappers shaped like costline's own request path: a
 * wrapper that reads the fiber and maps the inner result (the pipeline's `withFiberRuntime`
 * steps), a generator middleware that looks up a service and calls it (the tenant middleware,
 * `Auth`), a failure handler (the pipeline's error rendering) and a map (the encoder): ten steps
 * each on Effect 3. 5 layers take 84 steps per `insight_get` (none 34, 16 layers 194), as
 * costline's read took 86 when this was written (`bench/cpu.ts --steps`; 59 since its tenant
 * middleware answers a key in use in one step).
 *
 * Same program, two runtimes: what costline's number of steps costs served on the runtime it
 * has, and what it would cost on Effect 4's. Effect 4 comes from the `effect4` alias
 * (`npm:effect@4`, a dev dependency of the benchmark only).
 *
 *   node bench/floor/runtime-steps.mjs --database sqlite:/path/to.db --port 8084 --effect 4 --layers 5
 *   npx vite-node bench/served-ab.ts -- --side '{"costline":"bench/floor/runtime-steps.mjs","env":{"FLOOR_EFFECT":"3"}}' …
 *
 * `--count-steps` (Effect 3 only) prints the interpreter steps per request every 1,000 requests.
 * Prints `floor listening on http://…` once it accepts connections. A first argument `serve` is
 * ignored, so that `bench/served-ab.ts` can start it as it starts costline.
 */
import { createServer } from "node:http"
import { parseArgs } from "node:util"
import { listen, makeApp, send } from "../baseline/app.mjs"
import { pageTokens } from "../baseline/auth.mjs"
import { openStore } from "../baseline/stores.mjs"
import { makeAnswer } from "./answer.mjs"

const { values } = parseArgs({
  allowPositionals: true,
  options: {
    database: { type: "string" },
    port: { type: "string", default: "0" },
    effect: { type: "string", default: process.env.FLOOR_EFFECT ?? "3" },
    layers: { type: "string", default: process.env.FLOOR_LAYERS ?? "5" },
    "count-steps": { type: "boolean", default: false }
  }
})
if (values.database === undefined) throw new Error("--database is required")
const v4 = values.effect === "4"
const { Context, Effect, Exit } = v4 ? await import("effect4") : await import("effect")
const store = openStore(values.database)
const app = makeApp(store, await pageTokens(store))

/** The names that changed between the two major versions. */
const withFiber = v4 ? Effect.withFiber : Effect.withFiberRuntime
const catchCause = v4 ? Effect.catchCause : Effect.catchAllCause
const Service = v4 ? Context.Service("Floor/Service") : Context.GenericTag("Floor/Service")
const service = { seen: 0, touch() { return ++this.seen } }
const FALLBACK = { status: 500, body: { detail: "failed" } }

/**
 * One layer of the request path around `inner`.
 * @param {any} inner
 */
const layer = (inner) =>
  withFiber((/** @type {unknown} */ fiber) =>
    Effect.map(
      catchCause(
        Effect.gen(function*() {
          const found = yield* Service
          yield* Effect.sync(() => found.touch())
          return yield* inner
        }),
        () => Effect.succeed(FALLBACK)
      ),
      (reply) => (fiber === undefined ? FALLBACK : reply)
    )
  )

const answer = makeAnswer(Effect, app)

const layers = Number(values.layers)
/** @param {import("node:http").IncomingMessage} request */
const served = (request) => {
  let effect = answer(request)
  for (let i = 0; i < layers; i++) effect = layer(effect)
  return Effect.provideService(effect, Service, service)
}

let counted = { steps: 0, requests: 0 }
if (values["count-steps"] && !v4) {
  const { fiberRuntimeOf, onEveryStep } = await import("../lib/inprocess.mjs")
  onEveryStep(await fiberRuntimeOf(new URL("../..", import.meta.url).pathname), () => counted.steps++)
}

const server = createServer((request, response) => {
  const fiber = Effect.runFork(served(request))
  fiber.addObserver((/** @type {any} */ exit) => {
    send(response, Exit.isSuccess(exit) ? exit.value : { status: 500, body: { detail: String(exit.cause) } })
    if (values["count-steps"] && ++counted.requests % 1000 === 0) {
      process.stderr.write(`${(counted.steps / counted.requests).toFixed(1)} steps per request\n`)
      counted = { steps: 0, requests: 0 }
    }
  })
})

listen(server, Number(values.port), "floor", store)
