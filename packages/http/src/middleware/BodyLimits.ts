/**
 * Checks a request body before anything reads it: too large → 413, not JSON → 415. Announced
 * sizes are checked here; for bodies without a `Content-Length` the same limit is enforced while
 * reading (see the pipeline).
 */
import { HttpMethod, type HttpServerRequest } from "@effect/platform"
import { Effect } from "effect"
import { PayloadTooLarge, UnsupportedMediaType } from "../errors/RequestErrors.js"

export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024

/** `application/json`, with or without parameters such as `charset`. */
const isJson = (contentType: string) => contentType.split(";", 1)[0]!.trim().toLowerCase() === "application/json"

export const check = (
  request: HttpServerRequest.HttpServerRequest,
  maxBytes: number
): Effect.Effect<void, PayloadTooLarge | UnsupportedMediaType> => {
  if (!HttpMethod.hasBody(request.method)) return Effect.void
  const length = request.headers["content-length"]
  if (length !== undefined && Number(length) > maxBytes) return Effect.fail(new PayloadTooLarge({ limitBytes: maxBytes }))
  const hasBody = (length !== undefined && Number(length) > 0) || request.headers["transfer-encoding"] !== undefined
  const contentType = request.headers["content-type"]
  if (hasBody && contentType !== undefined && !isJson(contentType)) {
    return Effect.fail(new UnsupportedMediaType({ contentType }))
  }
  return Effect.void
}
