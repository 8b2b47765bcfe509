/**
 * The bundled server: the API on a node:http server. A layer, so it runs as long as its scope:
 * `Layer.launch(serve(...))` under `NodeRuntime.runMain` serves until SIGINT/SIGTERM, then stops
 * accepting connections, lets in-flight requests finish (`GracefulShutdown`) and only then closes
 * the store. Logs are JSON lines, written in batches. Requests are served by costline's own node
 * handler (`NodeServing`), as `makeHandler` serves them.
 */
import { HttpApiBuilder, type HttpRouter, HttpServer } from "@effect/platform"
import { NodeHttpServer } from "@effect/platform-node"
import { type Duration, Effect, Layer } from "effect"
import type { Server } from "node:http"
import { internalError } from "./errors/InternalError.js"
import * as GracefulShutdown from "./GracefulShutdown.js"
import { ApiLive } from "./Layers.js"
import { type ApiOptions, loggingLayer } from "./Options.js"
import * as Dispatch from "./routing/Dispatch.js"
import * as NodeServing from "./routing/NodeServing.js"

/**
 * The API's requests on the listening node server (in place of `HttpServer.serve`, which would
 * serve them through the platform's handler); removed when its scope closes.
 */
const serveApi = (server: () => Server, tracing: boolean) =>
  Layer.scopedDiscard(Effect.gen(function*() {
    // Built once the listener is: its address is known, and it closes after this layer.
    yield* HttpServer.HttpServer
    const app = yield* Dispatch.httpApp
    const runtime = yield* Effect.runtime<HttpRouter.HttpRouter.DefaultServices>()
    const handler = NodeServing.makeHandler(app, runtime, {
      tracing,
      onFailure: (request) => internalError(request.url, request)
    })
    const node = server()
    node.on("request", handler)
    yield* Effect.addFinalizer(() => Effect.sync(() => node.off("request", handler)))
  })).pipe(Layer.provide(HttpApiBuilder.Middleware.layer))

export interface ServeOptions<E> extends ApiOptions<E> {
  /** 0 picks a free port (read it from the `HttpServer` service's address). */
  readonly port: number
  /** Default 127.0.0.1: listen on other interfaces only when asked. */
  readonly host?: string | undefined
  /** How long shutdown waits for in-flight requests before cutting them off. Default 10 seconds. */
  readonly drainTimeout?: Duration.DurationInput | undefined
  /**
   * How long a client may take to send a request's headers; then it is answered 408 and its
   * connection closed (within a second). Default 60 seconds.
   */
  readonly headersTimeout?: Duration.DurationInput | undefined
}

/** Provides the running `HttpServer` (and its address); access log on unless turned off. */
export const serve = <E>(options: ServeOptions<E>) => {
  const shutdown = GracefulShutdown.make(options.drainTimeout, options.headersTimeout)
  let node: Server | undefined
  const createServer = () => (node = shutdown.createServer())
  // Built in order API → listener → routes → drain; closed in reverse, so the store outlives
  // every request the listener accepted.
  return shutdown.layer.pipe(
    Layer.provideMerge(serveApi(() => node!, options.tracing === true)),
    Layer.provideMerge(NodeHttpServer.layer(createServer, { port: options.port, host: options.host ?? "127.0.0.1" })),
    Layer.provide(ApiLive({ ...options, accessLog: options.accessLog ?? true })),
    Layer.provide(loggingLayer(options))
  )
}
