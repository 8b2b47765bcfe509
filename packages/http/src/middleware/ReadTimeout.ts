/**
 * The read timeout: once its headers are in, a request's body must arrive within the timeout, or
 * the request is answered 408 and its connection closed (the unread rest of the body would
 * otherwise be taken for the next request). The body is read here, ahead of the endpoint; the
 * platform caches it, so the endpoint decodes the same bytes without reading again.
 */
import type { HttpApp } from "@effect/platform"
import { Duration, Effect, Fiber } from "effect"
import * as RequestFiber from "../routing/RequestFiber.js"
import { RequestTimeout } from "../errors/RequestErrors.js"
import { hasBody } from "./BodyLimits.js"

export const DEFAULT_READ_TIMEOUT = Duration.seconds(30)

export const make = (timeout: Duration.DurationInput) => <E, R>(app: HttpApp.Default<E, R>) =>
  RequestFiber.withRequest((request): HttpApp.Default<E | RequestTimeout, R> => {
    if (!hasBody(request)) return app
    const read = Effect.gen(function*() {
      // Never interrupted: interrupting the platform's read destroys the request stream. It
      // ends when the body is in, or when the connection closes after the 408.
      const reading = yield* Effect.forkDaemon(Effect.ignore(request.text))
      // Interruptible even where the platform runs us uninterruptibly: the timeout must win.
      yield* Effect.interruptible(Fiber.await(reading)).pipe(
        Effect.timeoutFail({
          duration: timeout,
          onTimeout: () => new RequestTimeout({ timeoutMs: Duration.toMillis(timeout) })
        })
      )
    })
    return Effect.zipRight(read, app)
  })
