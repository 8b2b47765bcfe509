/**
 * The read timeout: once its headers are in, a request's body must arrive within the timeout, or
 * the request is answered 408 and its connection closed (the unread rest of the body would
 * otherwise be taken for the next request). The body is read here, ahead of the endpoint, and
 * kept, so the endpoint decodes the same text without reading again.
 *
 * On the node server the wait is the body's own (`NodeBody.settledWithin`: a timer beside the
 * read). Other requests (a fetch host's) get the general form: the read forked, never
 * interrupted (interrupting the platform's read destroys the request stream), and awaited with
 * the timeout.
 */
import type { HttpApp, HttpServerRequest } from "@effect/platform"
import { Duration, Effect, Fiber } from "effect"
import * as NodeServing from "../routing/NodeServing.js"
import * as RequestFiber from "../routing/RequestFiber.js"
import { RequestTimeout } from "../errors/RequestErrors.js"
import { hasBody } from "./BodyLimits.js"

export const DEFAULT_READ_TIMEOUT = Duration.seconds(30)

const forked = (request: HttpServerRequest.HttpServerRequest, timeout: Duration.DurationInput, onTimeout: () => RequestTimeout) =>
  Effect.gen(function*() {
    const reading = yield* Effect.forkDaemon(Effect.ignore(request.text))
    // Interruptible even where the platform runs us uninterruptibly: the timeout must win.
    yield* Effect.interruptible(Fiber.await(reading)).pipe(Effect.timeoutFail({ duration: timeout, onTimeout }))
  })

export const make = (timeout: Duration.DurationInput) => {
  const timeoutMs = Duration.toMillis(timeout)
  const onTimeout = () => new RequestTimeout({ timeoutMs })
  return <E, R>(app: HttpApp.Default<E, R>) =>
    RequestFiber.withRequest((request, fiber): HttpApp.Default<E | RequestTimeout, R> => {
      if (!hasBody(request)) return app
      const read = request instanceof NodeServing.NodeRequest
        ? request.body.settledWithin(NodeServing.maxBodyBytes(fiber), timeoutMs, onTimeout)
        : forked(request, timeout, onTimeout)
      return Effect.zipRight(read, app)
    })
}
