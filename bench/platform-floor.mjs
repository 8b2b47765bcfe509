// @ts-check
/**
 * The floor under every costline request: an `@effect/platform` HttpApi with one endpoint that
 * answers a constant (no store, no middleware, no schema work beyond a two-field struct), served
 * by `HttpApiBuilder.serve` on node:http exactly as costline's server is (tracing off), and the
 * same answer from bare node:http. Each server runs in a process of its own; both are driven
 * with autocannon from this one, warm-up then measured, at 1 and 64 connections. See
 * docs/performance.md ("Where the time goes").
 *
 *   npx tsc -b && node bench/platform-floor.mjs
 */
import { HttpApi, HttpApiBuilder, HttpApiEndpoint, HttpApiGroup, HttpMiddleware } from "@effect/platform"
import { NodeHttpServer } from "@effect/platform-node"
import autocannon from "autocannon"
import { Effect, Exit, Layer, Schema, Scope } from "effect"
import { fork } from "node:child_process"
import { createServer } from "node:http"

const Item = Schema.Struct({ id: Schema.String, title: Schema.String })
const Api = HttpApi.make("floor").add(
  HttpApiGroup.make("items").add(
    HttpApiEndpoint.get("getItem", "/items/:id").setPath(Schema.Struct({ id: Schema.String })).addSuccess(Item)
  )
)
const ItemsLive = HttpApiBuilder.group(Api, "items", (handlers) =>
  handlers.handle("getItem", ({ path }) => Effect.succeed({ id: path.id, title: "constant" })))

/** Starts the HttpApi server on a free port; resolves with its port and a stop function. */
const startEffectServer = async () => {
  const server = createServer()
  const layer = HttpMiddleware.withTracerDisabledWhen(HttpApiBuilder.serve(), () => true).pipe(
    Layer.provide(HttpApiBuilder.api(Api).pipe(Layer.provide(ItemsLive))),
    Layer.provide(NodeHttpServer.layer(() => server, { port: 0, host: "127.0.0.1" }))
  )
  const scope = Effect.runSync(Scope.make())
  await Effect.runPromise(Layer.buildWithScope(layer, scope))
  const address = server.address()
  if (address === null || typeof address === "string") throw new Error("no TCP address")
  return { port: address.port, stop: () => Effect.runPromise(Scope.close(scope, Exit.void)) }
}

/** The same answer from bare node:http. */
const startBareServer = async () => {
  const server = createServer((request, response) => {
    const id = (request.url ?? "").split("/")[2] ?? ""
    response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ id, title: "constant" }))
  })
  await new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(undefined)))
  const address = server.address()
  if (address === null || typeof address === "string") throw new Error("no TCP address")
  return { port: address.port, stop: () => new Promise((resolve) => server.close(() => resolve(undefined))) }
}

/** @param {number} port @param {number} connections */
const drive = (port, connections) =>
  autocannon({ url: `http://127.0.0.1:${port}/items/abc`, connections, duration: 3 }).then((result) => ({
    requestsPerSecond: Math.round(result.requests.average),
    p99Ms: result.latency.p99
  }))

/** Runs this file as one of the two servers; resolves with its port once it listens. */
const spawnServer = (/** @type {"effect" | "bare"} */ kind) =>
  new Promise((resolve, reject) => {
    const child = fork(new URL(import.meta.url).pathname, ["serve", kind])
    child.once("message", (port) => resolve({ port: Number(port), stop: () => child.kill() }))
    child.once("error", reject)
  })

if (process.argv[2] === "serve") {
  const server = process.argv[3] === "effect" ? await startEffectServer() : await startBareServer()
  process.send?.(server.port)
} else {
  const effect = /** @type {{ port: number, stop: () => void }} */ (await spawnServer("effect"))
  const bare = /** @type {{ port: number, stop: () => void }} */ (await spawnServer("bare"))
  try {
    for (const connections of [1, 64]) {
      await drive(effect.port, connections)
      await drive(bare.port, connections)
      const ours = await drive(effect.port, connections)
      const baseline = await drive(bare.port, connections)
      console.log(
        `${connections} connection(s): HttpApi ${ours.requestsPerSecond} req/s (p99 ${ours.p99Ms} ms), ` +
          `node:http ${baseline.requestsPerSecond} req/s (p99 ${baseline.p99Ms} ms), ` +
          `ratio ${(ours.requestsPerSecond / baseline.requestsPerSecond).toFixed(2)}`
      )
    }
  } finally {
    effect.stop()
    bare.stop()
  }
}
