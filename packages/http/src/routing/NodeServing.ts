/**
 * costline's own node serving: a node `(req, res)` handler made once from an app and a runtime.
 * Per request it wraps the `IncomingMessage` as an `HttpServerRequest` (`NodeRequest`), forks the
 * app on the runtime with the request already in the new fiber's context (the request's own,
 * over the runtime's: `RequestFiber.ownContext`), and writes the response from the fiber's exit,
 * a small one at the end of the event loop's turn with the turn's others (`TurnWrites`).
 *
 * What the platform's `NodeHttpServer.makeHandler` does around the app, and what is kept of it:
 * - `Effect.provideService` of the request (a scoped context change, ~23 interpreter steps):
 *   the request is put in the context the fiber is forked with instead (no step).
 * - `HttpApp.toHandled`'s per-request `Scope` (nothing costline runs asks for one), its error
 *   handling around the app (the API's pipeline answers every failure itself; what still escapes
 *   it is answered by `onFailure` from the exit) and the response written inside the fiber (here
 *   from the exit, so the fiber ends with the app).
 * - Kept: the pre-response handlers (`HttpApp.appendPreResponseHandler`: the base path's links,
 *   headers set outside a request's facts), run in the fiber after the app; a client that
 *   disconnects interrupts its request (interruptible throughout, where the platform's ran the
 *   app uninterruptibly but for its handler: a route that must finish is declared uninterruptible).
 * - With tracing on, the app goes through `HttpApp.toHandled` as before (its tracer middleware,
 *   which makes the server span, is not exported on its own), with this module's writer.
 */
import {
  Cookies,
  type Headers,
  HttpApp,
  HttpIncomingMessage,
  type HttpMethod,
  HttpServerError,
  HttpServerRequest,
  HttpServerResponse,
  type Multipart,
  type Socket,
  UrlParams
} from "@effect/platform"
import { NodeMultipart, NodeStream } from "@effect/platform-node"
import { Cause, Context, Effect, Exit, type Fiber, Inspectable, Option, Runtime, RuntimeFlags, Scope, type Stream } from "effect"
import type { IncomingMessage, ServerResponse } from "node:http"
import { Readable } from "node:stream"
import { NodeBody } from "./NodeBody.js"
import * as RequestFiber from "./RequestFiber.js"
import * as TurnWrites from "./TurnWrites.js"

/** The body size bound (`HttpIncomingMessage.MaxBodySize`) in a fiber's context, in bytes. */
export const maxBodyBytes = (fiber: Fiber.RuntimeFiber<unknown, unknown>): number | undefined =>
  Option.match(Context.get(fiber.currentContext, HttpIncomingMessage.MaxBodySize), {
    onNone: () => undefined,
    onSome: (size) => Number(size)
  })

/**
 * An `HttpServerRequest` over node's `IncomingMessage`: what the platform's own (internal) node
 * request class does, for the members costline and the platform's `HttpApi` decoding read. The
 * fields `source` and `response` carry the names the platform's public `NodeHttpServerRequest`
 * helpers read (`toIncomingMessage`, `toServerResponse`), so they work on it too.
 */
export class NodeRequest extends Inspectable.Class implements HttpServerRequest.HttpServerRequest {
  readonly [HttpServerRequest.TypeId]: HttpServerRequest.TypeId = HttpServerRequest.TypeId
  readonly [HttpIncomingMessage.TypeId]: HttpIncomingMessage.TypeId = HttpIncomingMessage.TypeId

  constructor(
    readonly source: IncomingMessage,
    readonly response: ServerResponse,
    readonly url: string = source.url!,
    private headersOverride?: Headers.Headers,
    private readonly remoteAddressOverride?: string,
    body?: NodeBody
  ) {
    super()
    this.body = body ?? new NodeBody(source, this.onError)
  }

  /** Shared by the requests `modify` derives, so a body is read once whichever reads it. */
  readonly body: NodeBody

  get originalUrl(): string {
    return this.source.url!
  }

  get method(): HttpMethod.HttpMethod {
    return this.source.method!.toUpperCase() as HttpMethod.HttpMethod
  }

  get headers(): Headers.Headers {
    return this.headersOverride ??= this.source.headers as Headers.Headers
  }

  get remoteAddress(): Option.Option<string> {
    return Option.fromNullable(this.remoteAddressOverride ?? this.source.socket.remoteAddress)
  }

  private cookiesParsed: Record<string, string> | undefined
  get cookies(): Record<string, string> {
    return this.cookiesParsed ??= Cookies.parseHeader(this.headers.cookie ?? "")
  }

  modify(options: { readonly url?: string; readonly headers?: Headers.Headers; readonly remoteAddress?: string }) {
    return new NodeRequest(
      this.source,
      this.response,
      options.url ?? this.url,
      options.headers ?? this.headersOverride,
      options.remoteAddress ?? this.remoteAddressOverride,
      this.body
    )
  }

  private readonly onError = (cause: unknown): HttpServerError.RequestError => new HttpServerError.RequestError({ request: this, reason: "Decode", cause })

  /** Read once (later reads get the same text), up to the `MaxBodySize` of the fiber that reads first. */
  get text(): Effect.Effect<string, HttpServerError.RequestError> {
    return this.body.outcome ?? Effect.withFiberRuntime((fiber) => this.body.read(maxBodyBytes(fiber)))
  }

  get json(): Effect.Effect<unknown, HttpServerError.RequestError> {
    return Effect.tryMap(this.text, { try: (text) => text === "" ? null : JSON.parse(text) as unknown, catch: this.onError })
  }

  get urlParamsBody(): Effect.Effect<UrlParams.UrlParams, HttpServerError.RequestError> {
    return Effect.flatMap(this.text, (text) =>
      Effect.try({
        try: () => UrlParams.fromInput(new URLSearchParams(text)),
        catch: this.onError
      }))
  }

  get arrayBuffer(): Effect.Effect<ArrayBuffer, HttpServerError.RequestError> {
    return Effect.flatMap(HttpIncomingMessage.MaxBodySize, (maxBodySize) =>
      NodeStream.toUint8Array(() => this.source, { onFailure: this.onError, maxBytes: Option.getOrUndefined(maxBodySize) })
        .pipe(Effect.map((bytes) => bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer)))
  }

  get stream(): Stream.Stream<Uint8Array, HttpServerError.RequestError> {
    return NodeStream.fromReadable(() => this.source, this.onError)
  }

  get multipart() {
    return NodeMultipart.persisted(this.source, this.source.headers)
  }

  get multipartStream(): Stream.Stream<Multipart.Part, Multipart.MultipartError> {
    return NodeMultipart.stream(this.source, this.source.headers)
  }

  /** costline serves no WebSockets. */
  get upgrade(): Effect.Effect<Socket.Socket, HttpServerError.RequestError> {
    return Effect.fail(new HttpServerError.RequestError({ request: this, reason: "Decode", description: "not an upgradeable request" }))
  }

  override toString(): string {
    return `ServerRequest(${this.method} ${this.url})`
  }

  toJSON(): unknown {
    return HttpIncomingMessage.inspect(this, { _id: "@effect/platform/HttpServerRequest", method: this.method, url: this.originalUrl })
  }
}

/** The response's headers with its cookies as `set-cookie` lines, as the platform's writer sends them. */
const headersOf = (response: HttpServerResponse.HttpServerResponse): Record<string, string | Array<string>> => {
  if (Cookies.isEmpty(response.cookies)) return response.headers
  const cookies = Cookies.toSetCookieHeaders(response.cookies)
  const existing = response.headers["set-cookie"]
  if (existing !== undefined) cookies.push(existing)
  return { ...response.headers, "set-cookie": cookies }
}

/**
 * Writes `response` on `res`: the head, then the body of whichever kind. Bodies produced by an
 * effect (a `Stream`, form data) go through the web conversion on `runtime` and are piped; a
 * client that leaves destroys the pipe, which ends the stream's fiber.
 */
export const write = (
  request: HttpServerRequest.HttpServerRequest,
  res: ServerResponse,
  response: HttpServerResponse.HttpServerResponse,
  runtime: Runtime.Runtime<never>
): void => {
  if (res.writableEnded) return
  const body = response.body
  if (request.method === "HEAD" || body._tag === "Empty") {
    res.writeHead(response.status, headersOf(response)).end()
    return
  }
  if (body._tag === "Uint8Array") {
    res.writeHead(response.status, headersOf(response)).end(body.body)
    return
  }
  if (body._tag === "Raw" && !(typeof body.body === "object" && body.body !== null && "pipe" in body.body)) {
    res.writeHead(response.status, headersOf(response)).end(body.body)
    return
  }
  const source = body._tag === "Raw"
    ? body.body as Readable
    : Readable.fromWeb(HttpServerResponse.toWeb(response, { runtime }).body! as import("node:stream/web").ReadableStream)
  const web = body._tag === "FormData" ? HttpServerResponse.toWeb(response, { runtime }) : undefined
  res.writeHead(response.status, web === undefined ? headersOf(response) : { ...headersOf(response), ...Object.fromEntries(web.headers) })
  source.on("error", () => res.destroy())
  res.once("close", () => source.destroy())
  source.pipe(res)
}

/** The size of the body `write` sends for `response` (bytes; a string's length in UTF-16 units), undefined for a stream or form. */
const bodyBytes = (request: HttpServerRequest.HttpServerRequest, response: HttpServerResponse.HttpServerResponse): number | undefined => {
  const body = response.body
  if (request.method === "HEAD" || body._tag === "Empty") return 0
  if (body._tag === "Uint8Array") return body.body.length
  return body._tag === "Raw" && typeof body.body === "string" ? body.body.length : undefined
}

export interface ServingOptions {
  /** A server span per request: the app runs inside the platform's `HttpApp.toHandled`. */
  readonly tracing: boolean
  /**
   * The answer to a request whose app failed (a failure the app did not answer itself, or a
   * defect; its cause is logged); never called for a client that disconnected.
   */
  readonly onFailure: (request: HttpServerRequest.HttpServerRequest) => HttpServerResponse.HttpServerResponse
}

/** The app's response after the pre-response handlers it registered, in the same fiber. */
const withPreResponseHandlers = <E, R>(app: HttpApp.Default<E, R>): HttpApp.Default<E | HttpServerError.ResponseError, R> =>
  Effect.flatMap(app, (response) =>
    Effect.withFiberRuntime((fiber) => {
      const handler = fiber.getFiberRef(HttpApp.currentPreResponseHandlers)
      return handler._tag === "None"
        ? Effect.succeed(response)
        : handler.value(Context.unsafeGet(fiber.currentContext, HttpServerRequest.HttpServerRequest), response)
    }))

/**
 * The node handler of `app` on `runtime`. `runtime`'s context is the base of every request's
 * (a `Scope` in it is left out: a request must not extend a long-lived scope).
 */
export const makeHandler = <E, R>(
  app: HttpApp.Default<E, R>,
  runtime: Runtime.Runtime<Exclude<R, HttpServerRequest.HttpServerRequest>>,
  options: ServingOptions
): (req: IncomingMessage, res: ServerResponse) => void => {
  const answerRuntime = runtime as Runtime.Runtime<never>
  // What the fiber ends with: the response to write, or undefined when it was written inside.
  const served = (
    options.tracing
      ? Effect.as(
        HttpApp.toHandled(app, (request, response) =>
          Effect.sync(() => write(request, (request as NodeRequest).response, response, answerRuntime))),
        undefined
      )
      : withPreResponseHandlers(app)
  ) as Effect.Effect<HttpServerResponse.HttpServerResponse | undefined, unknown, never>
  const base = Context.omit(Scope.Scope)(runtime.context as Context.Context<unknown>).unsafeMap
  // Interruptible throughout: a client that leaves (or a server that cuts it off) stops the
  // request wherever it is; what must finish says so (an uninterruptible route, `Routes`).
  // `HttpApp.toHandled` runs the app uninterruptibly and its handler in an interruptible region:
  // a change of the fiber's flags per request that cost ~5 KB of promoted survivors a request.
  const runtimeFlags = RuntimeFlags.enable(runtime.runtimeFlags, RuntimeFlags.Interruption)
  // A small answer leaves with its turn's others, a large one at once (`TurnWrites`).
  const enqueue = TurnWrites.make()
  const answer = (request: HttpServerRequest.HttpServerRequest, res: ServerResponse, response: HttpServerResponse.HttpServerResponse) =>
    enqueue(res, bodyBytes(request, response), () => write(request, res, response, answerRuntime))
  return (req, res) => {
    // Its connection is already closed (cut off for pipelining too many requests, or gone):
    // nobody can read an answer, so none is computed.
    if (req.socket.destroyed) return
    const request = new NodeRequest(req, res)
    // The request's own context over the runtime's (not a copy of it), with its facts: the
    // pipeline records into them and the dispatch adds to the context without changing it.
    const context = RequestFiber.ownContext(base, request)
    const fiber = Runtime.runFork(Runtime.make({ context, runtimeFlags, fiberRefs: runtime.fiberRefs }))(served)
    fiber.addObserver((exit) => {
      if (Exit.isSuccess(exit)) return exit.value === undefined ? undefined : answer(request, res, exit.value)
      if (res.writableEnded) return
      if (res.headersSent) return void res.destroy()
      // Interrupted: the client went away (nobody reads the answer) or the server is stopping.
      // Anything else gets an answer too, never a hanging socket.
      const interrupted = Cause.isInterruptedOnly(exit.cause)
      if (!interrupted) Runtime.runFork(answerRuntime)(Effect.logError("costline: a request failed outside the API's pipeline", exit.cause))
      answer(request, res, interrupted ? HttpServerResponse.empty({ status: 503 }) : options.onFailure(request))
    })
    res.on("close", () => {
      if (!res.writableEnded) fiber.unsafeInterruptAsFork(HttpServerError.clientAbortFiberId)
    })
  }
}
