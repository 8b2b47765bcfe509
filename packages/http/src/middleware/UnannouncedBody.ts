/**
 * Bodies of unannounced length (chunked) on the node server, read here up to the size limit
 * instead of by the platform. The platform's reader destroys the request stream when a body
 * passes its limit, which resets the connection: the client never sees an answer. Here, a body
 * over the limit fails with `PayloadTooLarge` at once while the rest of it is read and dropped,
 * so the 413 reaches a client that is still sending, on a connection that stays usable. The rest
 * must arrive within the read timeout, else the connection is closed. A body within the limit
 * is handed on as a request with an announced length. Web handlers announce lengths already
 * (`Hosting.ts`).
 */
import { HttpServerRequest } from "@effect/platform"
import { NodeHttpServerRequest } from "@effect/platform-node"
import { Duration, Effect, Option } from "effect"
import { IncomingMessage } from "node:http"
import { PayloadTooLarge, RequestTimeout } from "../errors/RequestErrors.js"
import { hasBody } from "./BodyLimits.js"

const read = (
  source: IncomingMessage,
  maxBytes: number,
  timeoutMs: number
): Effect.Effect<Buffer, PayloadTooLarge> =>
  Effect.async<Buffer, PayloadTooLarge>((resume) => {
    const chunks: Array<Buffer> = []
    let length = 0
    let tooLarge = false
    let linger: NodeJS.Timeout | undefined
    const onData = (chunk: Buffer) => {
      if (tooLarge) return
      length += chunk.byteLength
      if (length <= maxBytes) return void chunks.push(chunk)
      tooLarge = true
      chunks.length = 0
      // Keep reading (and dropping) so the client can finish sending and read the 413.
      linger = setTimeout(() => source.destroy(), timeoutMs).unref()
      resume(Effect.fail(new PayloadTooLarge({ limitBytes: maxBytes })))
    }
    const onEnd = () => {
      clearTimeout(linger)
      if (!tooLarge) resume(Effect.succeed(Buffer.concat(chunks)))
    }
    source.on("data", onData)
    source.once("end", onEnd)
    source.once("close", () => clearTimeout(linger))
    // Interrupted (timeout, client gone): stop listening; the connection is closed after the answer.
    return Effect.sync(() => {
      if (tooLarge) return
      source.off("data", onData)
      source.off("end", onEnd)
    })
  })

/** The request, its body read and bounded when it is of unannounced length on the node server. */
export const bounded = (
  request: HttpServerRequest.HttpServerRequest,
  maxBytes: number,
  timeout: Duration.DurationInput
): Effect.Effect<HttpServerRequest.HttpServerRequest, PayloadTooLarge | RequestTimeout> => {
  if (!hasBody(request) || request.headers["content-length"] !== undefined) return Effect.succeed(request)
  const source = NodeHttpServerRequest.toIncomingMessage(request) as unknown
  if (!(source instanceof IncomingMessage)) return Effect.succeed(request)
  const timeoutMs = Duration.toMillis(timeout)
  // Interruptible where the server runs us uninterruptibly: else the timeout would wait for the
  // read it is to cut short, and a chunked body that stops would hold its connection.
  return Effect.interruptible(read(source, maxBytes, timeoutMs)).pipe(
    Effect.timeoutFail({ duration: timeout, onTimeout: () => new RequestTimeout({ timeoutMs }) }),
    Effect.map((body) => {
      const { "transfer-encoding": _chunked, ...headers } = request.headers
      const buffered = new Request(`http://localhost${request.url}`, {
        method: request.method,
        headers: { ...headers, "content-length": String(body.byteLength) },
        body
      })
      return HttpServerRequest.fromWeb(buffered).modify({
        url: request.url,
        ...Option.match(request.remoteAddress, { onNone: () => ({}), onSome: (remoteAddress) => ({ remoteAddress }) })
      })
    })
  )
}
