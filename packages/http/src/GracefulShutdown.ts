/**
 * Graceful shutdown of the bundled server. When the server's scope closes (SIGTERM/SIGINT under
 * `NodeRuntime.runMain`), it stops accepting connections, tells keep-alive clients to go
 * (`Connection: close`), lets every request already received finish, and only then lets the
 * layers below it (the store) close. Requests still running after `drainTimeout` lose their
 * connections, so a stuck client cannot hold a deploy forever.
 */
import { Duration, Effect, Layer } from "effect"
import * as ClientErrors from "./errors/ClientErrors.js"
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http"
import type { Socket } from "node:net"

export const DEFAULT_DRAIN_TIMEOUT = Duration.seconds(10)

/** How long a client may take to send a request's headers; then Node answers 408 and closes. */
export const DEFAULT_HEADERS_TIMEOUT = Duration.seconds(60)

/**
 * Node checks the headers timeout on a timer (every 30 s by default, so a slow client kept its
 * socket up to 90 s): checked every second here, at most this much after the timeout.
 */
const MAX_CHECKING_INTERVAL_MS = 1000

/**
 * The most requests one connection may have in flight at once. Node parses every request a
 * client pipelines in one packet before it stops reading, and keeps every answer in memory until
 * the client reads the ones before: ~2,000 requests in 80 KB of one write, never read, held
 * ~700 MB of answers. A client that sends more is cut off; one that waits for its answers (every
 * browser and HTTP library) never has more than one.
 */
export const MAX_REQUESTS_IN_FLIGHT_PER_CONNECTION = 32

export interface Drainable {
  /** Creates the node server (give it to `NodeHttpServer.layer`); requests are tracked from the start. */
  readonly createServer: () => Server
  /** Drains when its scope closes: build it after the server and the API, so it closes first. */
  readonly layer: Layer.Layer<never>
}

export const make = (
  drainTimeout: Duration.DurationInput = DEFAULT_DRAIN_TIMEOUT,
  headersTimeout: Duration.DurationInput = DEFAULT_HEADERS_TIMEOUT
): Drainable => {
  const headersTimeoutMs = Math.max(1, Math.round(Duration.toMillis(headersTimeout)))
  let server: Server | undefined
  let closing = false
  const inFlight = new Set<ServerResponse>()
  let onDrained: (() => void) | undefined

  /** A request's answer starts: tracked until `untrack`, when its response closes. */
  const track = (response: ServerResponse) => {
    inFlight.add(response)
    if (closing && !response.headersSent) response.setHeader("connection", "close")
  }
  const untrack = (response: ServerResponse) => {
    inFlight.delete(response)
    if (inFlight.size === 0) onDrained?.()
  }

  const drain = Effect.async<void>((resume) => {
    closing = true
    server?.close()
    for (const response of inFlight) if (!response.headersSent) response.setHeader("connection", "close")
    if (inFlight.size === 0) return resume(Effect.void)
    onDrained = () => resume(Effect.void)
  }).pipe(
    Effect.timeoutTo({ duration: drainTimeout, onSuccess: () => true, onTimeout: () => false }),
    Effect.flatMap((drained) =>
      drained ? Effect.void : Effect.logWarning(`shutdown: ${inFlight.size} request(s) still running; closing them`)
    ),
    Effect.ensuring(Effect.sync(() => server?.closeAllConnections()))
  )

  return {
    createServer: () => {
      server = createServer({
        headersTimeout: headersTimeoutMs,
        // Node requires the whole-request timeout to be at least the headers timeout.
        requestTimeout: Math.max(headersTimeoutMs, 300_000),
        connectionsCheckingInterval: Math.min(MAX_CHECKING_INTERVAL_MS, headersTimeoutMs)
      })
      // What Node refuses before any handler sees it is answered in the API's shape too.
      server.on("clientError", ClientErrors.onClientError)
      server.on("checkExpectation", ClientErrors.onUnmetExpectation)
      // Registered before the API's own listener, so it sees every request first.
      const pendingOn = new WeakMap<Socket, number>()
      server.on("request", (request: IncomingMessage, response: ServerResponse) => {
        track(response)
        const socket = request.socket
        const pending = (pendingOn.get(socket) ?? 0) + 1
        pendingOn.set(socket, pending)
        // One listener for both counts: a listener per count was a closure and a registration more per request.
        response.once("close", () => {
          untrack(response)
          pendingOn.set(socket, (pendingOn.get(socket) ?? 1) - 1)
        })
        if (pending > MAX_REQUESTS_IN_FLIGHT_PER_CONNECTION) socket.destroy()
      })
      return server
    },
    layer: Layer.scopedDiscard(Effect.addFinalizer(() => drain))
  }
}
