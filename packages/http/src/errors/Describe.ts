/**
 * From whatever made a request fail (the `Cause` the router hands back, before the platform
 * encodes anything) to one `HttpFailure`. Unknown failures and defects become `internal` and are
 * logged with their cause; nothing about them reaches the client.
 */
import type { Errors } from "@costline/core"
import { HttpApiDecodeError } from "@effect/platform/HttpApiError"
import type { HttpServerRequest } from "@effect/platform"
import { isServerError, type RequestError as BodyReadError } from "@effect/platform/HttpServerError"
import { Cause, Effect, Option } from "effect"
import * as RouteTable from "../routing/RouteTable.js"
import {
  fromDomainError,
  fromRequestRejection,
  internal,
  isDomainError,
  isRequestRejection,
  routeNotFound,
  validationFailure
} from "./Classify.js"
import * as DecodeFailure from "./DecodeFailure.js"
import { failure, type HttpFailure } from "./Problem.js"
import { MalformedBody, MethodNotAllowed, PayloadTooLarge } from "./RequestErrors.js"

const unexpected = (cause: Cause.Cause<unknown>): Effect.Effect<HttpFailure> =>
  Effect.as(Effect.logError("request failed unexpectedly", cause), internal)

/**
 * A 503 from the store is the operator's to act on (a lock held elsewhere, a database down): the
 * log names the store's reason, which the client never sees.
 */
const storeUnavailable = (error: Errors.StoreUnavailable): Effect.Effect<HttpFailure> =>
  Effect.as(
    Effect.logWarning("the store is unavailable; answered 503").pipe(Effect.annotateLogs({ cause: error.message })),
    fromDomainError(error)
  )

/** 405 when some other method serves this path, else 404. */
const noRoute = (request: HttpServerRequest.HttpServerRequest, routes: RouteTable.RouteTable): HttpFailure => {
  const allowed = RouteTable.allowedMethods(routes, request.url)
  return allowed.length > 0 && !allowed.includes(request.method)
    ? fromRequestRejection(new MethodNotAllowed({ method: request.method, allowed }))
    : routeNotFound(request.method, RouteTable.pathname(request.url))
}

const invalidRequest = (
  request: HttpServerRequest.HttpServerRequest,
  routes: RouteTable.RouteTable,
  cause: Cause.Cause<unknown>
): Effect.Effect<HttpFailure> =>
  Option.match(RouteTable.match(routes, request.method, request.url), {
    onNone: () => unexpected(cause),
    onSome: (match) =>
      DecodeFailure.locate(match, request).pipe(
        Effect.flatMap(Option.match({
          // Every part of the request is valid: the platform failed to encode our response.
          onNone: () => unexpected(cause),
          onSome: (issues) => Effect.succeed(validationFailure(issues))
        })),
        Effect.catchTag("MalformedBody", (error) => Effect.succeed(fromRequestRejection(error))),
        Effect.catchTag("RequestError", () => unexpected(cause))
      )
  })

const isBodyReadError = (defect: unknown): defect is BodyReadError =>
  isServerError(defect) && defect._tag === "RequestError" && defect.reason === "Decode"

/**
 * The platform reads JSON bodies with `orDie`, so an unreadable body arrives as a defect. An
 * empty body is a missing one (a 422, as for any missing field), other unparsable text a 400.
 */
const unreadableBody = (
  error: BodyReadError,
  request: HttpServerRequest.HttpServerRequest,
  maxBodyBytes: number
): Effect.Effect<HttpFailure> => {
  if (error.cause instanceof SyntaxError) {
    return DecodeFailure.readJsonBody(request).pipe(
      Effect.map((body) =>
        body === undefined
          ? validationFailure([DecodeFailure.missingBody])
          : fromRequestRejection(new MalformedBody())
      ),
      Effect.catchAll(() => Effect.succeed(fromRequestRejection(new MalformedBody())))
    )
  }
  // The message of the platform's body reader when `MaxBodySize` is exceeded.
  if (error.cause instanceof Error && error.cause.message === "maxBytes exceeded") {
    return Effect.succeed(fromRequestRejection(new PayloadTooLarge({ limitBytes: maxBodyBytes })))
  }
  return Effect.succeed(failure("bad_request", "the request body could not be read"))
}

export const describe = (
  cause: Cause.Cause<unknown>,
  request: HttpServerRequest.HttpServerRequest,
  routes: RouteTable.RouteTable,
  maxBodyBytes: number
): Effect.Effect<HttpFailure> => {
  const error = Cause.failureOption(cause)
  if (Option.isSome(error)) {
    const e = error.value
    if (isDomainError(e)) return e._tag === "StoreUnavailable" ? storeUnavailable(e) : Effect.succeed(fromDomainError(e))
    if (isRequestRejection(e)) return Effect.succeed(fromRequestRejection(e))
    if (e instanceof HttpApiDecodeError) return invalidRequest(request, routes, cause)
    if (isServerError(e) && e._tag === "RouteNotFound") return Effect.succeed(noRoute(request, routes))
    return unexpected(cause)
  }
  const defect = Cause.dieOption(cause)
  if (Option.isSome(defect) && isBodyReadError(defect.value)) return unreadableBody(defect.value, request, maxBodyBytes)
  return unexpected(cause)
}
