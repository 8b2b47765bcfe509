/**
 * Checks a request body before anything reads it: too large → 413, not JSON → 415. Announced
 * sizes are checked here; for bodies without a `Content-Length` the same limit is enforced while
 * reading (see the pipeline).
 */
import { Headers, HttpMethod, type HttpServerRequest } from "@effect/platform"
import { Effect } from "effect"
import { PayloadTooLarge, UnsupportedMediaType } from "../errors/RequestErrors.js"

export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024

/** The ingestion route carries whole export files: its own, larger limit (ApiOptions.maxIngestBodyBytes). */
export const DEFAULT_MAX_INGEST_BODY_BYTES = 64 * 1024 * 1024

const INGEST_PATH = /\/v2\/dw-ingestions\/?(\?|$)/

/** The limit of a request's body: the ingestion route's, or the API-wide one. */
export const limitFor = (url: string, limits: { readonly maxBodyBytes: number; readonly maxIngestBodyBytes: number }) =>
  INGEST_PATH.test(url) ? limits.maxIngestBodyBytes : limits.maxBodyBytes

const JSON_TYPE = "application/json"
/** RFC 7396: a JSON merge patch is JSON; it is accepted where a patch is, on PATCH. */
const MERGE_PATCH_TYPE = "application/merge-patch+json"

/** The media type without parameters such as `charset`. */
const mediaType = (contentType: string) => contentType.split(";", 1)[0]!.trim().toLowerCase()

const isJson = (method: string, contentType: string) => {
  const type = mediaType(contentType)
  return type === JSON_TYPE || (method === "PATCH" && type === MERGE_PATCH_TYPE)
}

/** The platform parses a body as JSON only under `application/json`, so a merge patch is presented as that. */
export const asPlainJson = (request: HttpServerRequest.HttpServerRequest): HttpServerRequest.HttpServerRequest => {
  const contentType = request.headers["content-type"]
  return contentType !== undefined && mediaType(contentType) === MERGE_PATCH_TYPE
    ? request.modify({ headers: Headers.set(request.headers, "content-type", JSON_TYPE) })
    : request
}

export const check = (
  request: HttpServerRequest.HttpServerRequest,
  maxBytes: number
): Effect.Effect<void, PayloadTooLarge | UnsupportedMediaType> => {
  if (!HttpMethod.hasBody(request.method)) return Effect.void
  const length = request.headers["content-length"]
  if (length !== undefined && Number(length) > maxBytes) return Effect.fail(new PayloadTooLarge({ limitBytes: maxBytes }))
  const hasBody = (length !== undefined && Number(length) > 0) || request.headers["transfer-encoding"] !== undefined
  const contentType = request.headers["content-type"]
  if (hasBody && contentType !== undefined && !isJson(request.method, contentType)) {
    return Effect.fail(new UnsupportedMediaType({ contentType }))
  }
  return Effect.void
}
