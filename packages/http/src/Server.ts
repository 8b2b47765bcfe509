/**
 * The bundled server: the API on a node:http server. A layer, so it runs as long as its scope:
 * `Layer.launch(serve(...))` under `NodeRuntime.runMain` serves until SIGINT/SIGTERM, then stops
 * accepting connections, lets in-flight requests finish (`GracefulShutdown`) and only then closes
 * the store. Logs are JSON lines, written in batches.
 */
import { HttpApiBuilder, HttpServer } from "@effect/platform"
import { NodeHttpServer } from "@effect/platform-node"
import { type Duration, Effect, Layer } from "effect"
import * as GracefulShutdown from "./GracefulShutdown.js"
import { ApiLive } from "./Layers.js"
import { type ApiOptions, loggingLayer } from "./Options.js"
import * as Dispatch from "./routing/Dispatch.js"

/** `HttpApiBuilder.serve()` with costline's dispatch in place of the platform router. */
const serveApi = Dispatch.httpApp.pipe(
  Effect.map((app) => HttpServer.serve(app)),
  Layer.unwrapEffect,
  Layer.provide([HttpApiBuilder.Router.Live, HttpApiBuilder.Middleware.layer])
)

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
  // Built in order API → listener → routes → drain; closed in reverse, so the store outlives
  // every request the listener accepted.
  return shutdown.layer.pipe(
    Layer.provideMerge(serveApi),
    Layer.provideMerge(NodeHttpServer.layer(shutdown.createServer, { port: options.port, host: options.host ?? "127.0.0.1" })),
    Layer.provide(ApiLive({ ...options, accessLog: options.accessLog ?? true })),
    Layer.provide(loggingLayer(options))
  )
}
