// @ts-check
/**
 * Prototype of issue 19's node serving (landed since as `packages/http/src/routing/NodeServing.ts`;
 * this file is kept as the measurement that motivated it): what the platform's per-request
 * machinery costs around an app, in interpreter steps. The same constant app is served (a) through
 * `NodeHttpServer.makeHandler` (`HttpApp.toHandled`: tracer middleware, pre-response handlers,
 * error handling, the response written from inside the fiber) as costline's `makeHandler` does,
 * and (b) forked straight from the node callback with the request in a prebuilt context and the
 * response written from the fiber's exit. Tracing off in both, as costline's default.
 *
 *   node bench/prototype-direct.mjs
 */
import { HttpMiddleware, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { NodeHttpServer } from "@effect/platform-node"
import { Effect, Exit, ManagedRuntime, Runtime } from "effect"
import { createRequire } from "node:module"
import { dirname, join } from "node:path"
import { pathToFileURL } from "node:url"
import { inject } from "light-my-request"
import { onEveryStep } from "./lib/inprocess.mjs"

// The run loop of the `effect` instance the platform uses (its internal module, not exported).
const effectRoot = dirname(dirname(dirname(createRequire(import.meta.url).resolve("effect"))))
const { FiberRuntime } = await import(pathToFileURL(join(effectRoot, "dist/esm/internal/fiberRuntime.js")).href)

const app = Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) =>
  Effect.succeed(HttpServerResponse.text(`{"path":"${request.url}"}`, { contentType: "application/json" })))

const runtime = ManagedRuntime.make(NodeHttpServer.layerContext)
const rt = await runtime.runtime()

/** (a) as costline mounts it today. */
const viaPlatform = await runtime.runPromise(
  Effect.locally(NodeHttpServer.makeHandler(app), HttpMiddleware.currentTracerDisabledWhen, () => true)
)

/** (b) the prototype: the request is the one service the app reads; the answer written on exit. */
const runFork = Runtime.runFork(rt)
/** @param {import("node:http").IncomingMessage} req @param {import("node:http").ServerResponse} res */
const direct = (req, res) => {
  const request = HttpServerRequest.fromWeb(new Request(`http://localhost${req.url}`, { method: req.method ?? "GET" }))
  const fiber = runFork(Effect.provideService(app, HttpServerRequest.HttpServerRequest, request))
  fiber.addObserver((exit) => {
    if (Exit.isFailure(exit)) return res.writeHead(500).end()
    const response = exit.value
    const body = response.body
    res.writeHead(response.status, response.headers)
    res.end(body._tag === "Uint8Array" || body._tag === "Raw" ? body.body : undefined)
  })
}

const count = async (/** @type {string} */ name, /** @type {any} */ handler) => {
  for (let i = 0; i < 100; i++) await inject(handler, { method: "GET", url: "/x" })
  const counts = { steps: 0, fiber_ref_writes: 0 }
  const proto = FiberRuntime.prototype
  const restoreSteps = onEveryStep(FiberRuntime, () => counts.steps++)
  const setFiberRef = proto.setFiberRef
  proto.setFiberRef = function(/** @type {Array<unknown>} */ ...args) {
    counts.fiber_ref_writes++
    return setFiberRef.apply(this, args)
  }
  const n = 200
  for (let i = 0; i < n; i++) {
    const answer = await inject(handler, { method: "GET", url: "/x" })
    if (answer.statusCode !== 200) throw new Error(`${name}: ${answer.statusCode}`)
  }
  restoreSteps()
  proto.setFiberRef = setFiberRef
  console.log(JSON.stringify({ server: name, steps: counts.steps / n, fiber_ref_writes: counts.fiber_ref_writes / n }))
}
await count("platform makeHandler (toHandled)", viaPlatform)
await count("direct runFork from the node callback", direct)
await runtime.dispose()
