/**
 * Mounting the API in a host application: a node `(req, res)` handler (node:http, Express,
 * Fastify's raw handler) or a fetch-style `(Request) => Promise<Response>` (Hono, Bun, Deno,
 * workers). The node handler opens the store when it is made (a store that cannot be opened is
 * logged and every request answered 503), the web handler on its first request; both release
 * the store on `dispose()`. With `basePath` they serve the API under a prefix of the host's.
 */
import { HttpApiBuilder, HttpApp, type HttpRouter, HttpServer, HttpServerResponse } from "@effect/platform"
import { NodeHttpServer } from "@effect/platform-node"
import { Effect, Exit, Layer, ManagedRuntime } from "effect"
import type { IncomingMessage, ServerResponse } from "node:http"
import * as BasePath from "./BasePath.js"
import { internalError } from "./errors/InternalError.js"
import { failure, PROBLEMS, type ProblemCode } from "./errors/Problem.js"
import * as ProblemJson from "./errors/ProblemJson.js"
import { ApiLive } from "./Layers.js"
import * as BodyLimits from "./middleware/BodyLimits.js"
import * as RequestId from "./middleware/RequestId.js"
import { type ApiOptions, loggingLayer, pipelineOptions } from "./Options.js"
import * as Dispatch from "./routing/Dispatch.js"
import * as NodeServing from "./routing/NodeServing.js"

export interface Disposable {
  /** Stops serving and closes the store. */
  readonly dispose: () => Promise<void>
}

export type NodeHandler = ((request: IncomingMessage, response: ServerResponse) => void) & Disposable

export type WebHandler = ((request: Request) => Promise<Response>) & Disposable

export interface MountOptions<E = never> extends ApiOptions<E> {
  /**
   * The path the host serves the API under, e.g. `/cost`: requests arrive with it (it is taken
   * off before routing; requests outside it get 404) and the links in responses carry it. Hosts
   * that take the prefix off themselves (Express `app.use`, Hono `app.mount`) must not.
   */
  readonly basePath?: string | undefined
}

/** A problem+json answer given outside the API's pipeline, which renders all the others. */
const earlyProblem = (code: ProblemCode, detail: string, incomingRequestId: string | undefined) => {
  const requestId = RequestId.fromHeader(incomingRequestId)
  return {
    status: PROBLEMS[code].status,
    headers: { "content-type": ProblemJson.CONTENT_TYPE, [RequestId.HEADER]: requestId },
    body: JSON.stringify(ProblemJson.body(failure(code, detail), requestId))
  }
}

/** What every request gets from a handler whose API could not start (its store would not open). */
const notStarted = (request: IncomingMessage, response: ServerResponse) => {
  const incoming = request.headers[RequestId.HEADER]
  const problem = earlyProblem(
    "unavailable",
    "the API could not start; see the server log",
    typeof incoming === "string" ? incoming : undefined
  )
  response.writeHead(problem.status, problem.headers).end(problem.body)
}

/** The API under the options' base path: 404 for what the host passes on from outside it. */
const mounted = (options: MountOptions<unknown>) => {
  const basePath = BasePath.normalize(options.basePath)
  return <Err, R>(app: HttpApp.Default<Err, R>) =>
    BasePath.serveUnder(basePath, (request) => {
      const problem = earlyProblem(
        "not_found",
        `${request.url.split("?", 1)[0]} is not a route of this API: it is served under ${basePath}`,
        request.headers[RequestId.HEADER]
      )
      return HttpServerResponse.text(problem.body, {
        status: problem.status,
        contentType: ProblemJson.CONTENT_TYPE,
        headers: { [RequestId.HEADER]: problem.headers[RequestId.HEADER] }
      })
    }, app)
}

export const makeHandler = <E>(options: MountOptions<E>): NodeHandler => {
  const runtime = ManagedRuntime.make(
    Layer.mergeAll(ApiLive(options), HttpApiBuilder.Middleware.layer, NodeHttpServer.layerContext).pipe(
      Layer.provideMerge(loggingLayer(options))
    )
  )
  const basePath = BasePath.normalize(options.basePath)
  const ready = runtime.runPromiseExit(
    Effect.flatMap(Dispatch.httpApp, (app) =>
      Effect.map(Effect.runtime<HttpRouter.HttpRouter.DefaultServices>(), (rt) =>
        NodeServing.makeHandler(mounted(options)(app), rt, {
          tracing: options.tracing === true,
          onFailure: (request) => internalError(BasePath.strip(basePath, request.url) ?? request.url, request)
        })))
  )
    .then((exit) => {
      if (Exit.isSuccess(exit)) return exit.value
      // Logged once; every request then gets a 503 rather than a hanging socket.
      Effect.runFork(Effect.logError("costline: the API could not start", exit.cause))
      return undefined
    })
  // Once started, requests go straight to the API; only those that arrive while it starts wait.
  let started: ((request: IncomingMessage, response: ServerResponse) => void) | undefined
  void ready.then((handle) => started = handle ?? notStarted)
  const handler = (request: IncomingMessage, response: ServerResponse) => {
    if (started !== undefined) return started(request, response)
    void ready.then((handle) => handle === undefined ? notStarted(request, response) : handle(request, response))
  }
  return Object.assign(handler, { dispose: () => runtime.dispose() })
}

/**
 * The body of a web request, read up to `maxBytes`; undefined when it is longer. Web runtimes
 * hand over bodies of unknown length, and the platform would read them whole.
 */
const readBounded = async (body: ReadableStream<Uint8Array>, maxBytes: number): Promise<Uint8Array | undefined> => {
  const reader = body.getReader()
  const chunks: Array<Uint8Array> = []
  let length = 0
  for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
    length += chunk.value.byteLength
    if (length > maxBytes) {
      await reader.cancel()
      return undefined
    }
    chunks.push(chunk.value)
  }
  return Buffer.concat(chunks)
}

/**
 * A request whose body size is announced: buffered when it fits, and when it does not, emptied
 * and announced as one byte too long, so the pipeline answers 413 in the caller's API version.
 */
const withAnnouncedLength = async (request: Request, maxBytes: number): Promise<Request> => {
  if (request.body === null || request.headers.has("content-length")) return request
  const body = await readBounded(request.body, maxBytes)
  const headers = new Headers(request.headers)
  headers.set("content-length", String(body === undefined ? maxBytes + 1 : body.byteLength))
  return new Request(request.url, { method: request.method, headers, ...(body === undefined ? {} : { body }) })
}

export const toWebHandler = <E>(options: MountOptions<E>): WebHandler => {
  const limits = pipelineOptions(options)
  // HttpApiBuilder.toWebHandler, with the base path applied inside the response handling.
  const web = HttpApp.toWebHandlerLayerWith(
    Layer.mergeAll(ApiLive(options), HttpServer.layerContext, HttpApiBuilder.Middleware.layer).pipe(
      Layer.provideMerge(loggingLayer(options))
    ),
    { toHandler: (runtime) => Effect.provide(Effect.map(Dispatch.httpApp, mounted(options)), runtime) }
  )
  return Object.assign(
    // Each route's own limit, as on the node server: the ingestion route takes whole export files.
    async (request: Request) => web.handler(await withAnnouncedLength(request, BodyLimits.limitFor(request.url, limits))),
    { dispose: web.dispose }
  )
}
