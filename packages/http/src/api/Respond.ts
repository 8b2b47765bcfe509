/**
 * Response headers that endpoints cannot declare (`Location`, `ETag`, `Cache-Control`), so
 * handlers keep returning plain values the API encodes. They are recorded in the request's facts
 * (`RequestFiber`), and the pipeline sets them on the answer with its own headers — whatever
 * the answer, a failure's too. Outside a request's pipeline (no facts) they are added by a
 * pre-response handler, as the platform would: that was the way for every request until session
 * 15, a copy of the fiber's FiberRefs and a second copy of the response per call.
 */
import { HttpApp, HttpServerResponse } from "@effect/platform"
import { Effect } from "effect"
import * as RequestFiber from "../routing/RequestFiber.js"

export const setHeaders = (headers: Readonly<Record<string, string>>): Effect.Effect<void> =>
  Effect.withFiberRuntime((fiber) => setHeadersOf(fiber, headers) ?? Effect.void)

/**
 * `setHeaders` for the request `fiber` serves, from a step that has the fiber: undefined when
 * they are recorded (nothing to run), else the effect that adds them.
 */
export const setHeadersOf = (fiber: RequestFiber.AnyFiber, headers: Readonly<Record<string, string>>): Effect.Effect<void> | undefined =>
  RequestFiber.addHeaders(fiber, headers)
    ? undefined
    : HttpApp.appendPreResponseHandler((_request, response) => Effect.succeed(HttpServerResponse.setHeaders(response, headers)))

/** For responses that must never be reused: audit exports, credentials. */
export const noStore: Effect.Effect<void> = setHeaders({ "cache-control": "no-store" })
