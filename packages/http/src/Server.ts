/**
 * The bundled server: the API on a node:http server. A layer, so it runs as long as its scope:
 * `Layer.launch(serve(...))` under `NodeRuntime.runMain` serves until SIGINT/SIGTERM, then stops
 * accepting connections, lets in-flight requests finish and closes the store.
 */
import { HttpApiBuilder } from "@effect/platform"
import { NodeHttpServer } from "@effect/platform-node"
import { Layer } from "effect"
import { createServer } from "node:http"
import { ApiLive } from "./Layers.js"
import type { ApiOptions } from "./Options.js"

export interface ServeOptions<E> extends ApiOptions<E> {
  /** 0 picks a free port (read it from the `HttpServer` service's address). */
  readonly port: number
  /** Default 127.0.0.1: listen on other interfaces only when asked. */
  readonly host?: string | undefined
}

/** Provides the running `HttpServer` (and its address); access log on unless turned off. */
export const serve = <E>(options: ServeOptions<E>) =>
  HttpApiBuilder.serve().pipe(
    Layer.provide(ApiLive({ ...options, accessLog: options.accessLog ?? true })),
    Layer.provideMerge(NodeHttpServer.layer(createServer, { port: options.port, host: options.host ?? "127.0.0.1" }))
  )
