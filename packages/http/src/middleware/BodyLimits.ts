/**
 * Checks a request body before anything parses it: too large → 413; not JSON, without a
 * `Content-Type`, or in a charset other than UTF-8 → 415; nested deeper than `MAX_JSON_DEPTH`
 * → 400. Announced sizes are checked here; for bodies without a `Content-Length` the same limit
 * is enforced while reading (see the pipeline).
 */
import { Headers, type HttpApp, HttpMethod, HttpServerRequest } from "@effect/platform"
import { Errors } from "@costline/core"
import { Effect } from "effect"
import * as RequestFiber from "../routing/RequestFiber.js"
import { PayloadTooLarge, UnsupportedMediaType } from "../errors/RequestErrors.js"
import * as JsonDepth from "./JsonDepth.js"

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

/** The `charset` parameter, lower-cased and unquoted; undefined when there is none. */
const charset = (contentType: string): string | undefined => {
  for (const parameter of contentType.split(";").slice(1)) {
    const [name, ...value] = parameter.split("=")
    if (name!.trim().toLowerCase() === "charset") return value.join("=").trim().replace(/^"(.*)"$/, "$1").toLowerCase()
  }
  return undefined
}

/** JSON is UTF-8 (RFC 8259): a body that says it is anything else would be read as the wrong text. */
const isJson = (method: string, contentType: string) => {
  const type = mediaType(contentType)
  const encoding = charset(contentType)
  return (type === JSON_TYPE || (method === "PATCH" && type === MERGE_PATCH_TYPE)) &&
    (encoding === undefined || encoding === "utf-8")
}

/** Whether the request says it carries a body (an announced length above zero, or chunks). */
export const hasBody = (request: HttpServerRequest.HttpServerRequest): boolean => {
  if (!HttpMethod.hasBody(request.method)) return false
  const length = request.headers["content-length"]
  return (length !== undefined && Number(length) > 0) || request.headers["transfer-encoding"] !== undefined
}

/**
 * Whether the request says anything about a body: a length, chunks or a content type (whatever
 * its method). One that says nothing has no body to check, read, bound or present differently.
 */
export const announcesBody = (request: HttpServerRequest.HttpServerRequest): boolean => {
  const headers = request.headers
  return headers["content-length"] !== undefined || headers["transfer-encoding"] !== undefined ||
    headers["content-type"] !== undefined
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
  const contentType = request.headers["content-type"] ?? ""
  if (hasBody(request) && !isJson(request.method, contentType)) {
    return Effect.fail(new UnsupportedMediaType({ contentType }))
  }
  return Effect.void
}

/**
 * Refuses a body nested deeper than `MAX_JSON_DEPTH` before the endpoint parses it. Runs once
 * the body has been read (the platform keeps the text, so it is not read twice).
 */
export const nestingLimit = <E, R>(app: HttpApp.Default<E, R>) =>
  RequestFiber.withRequest((request): HttpApp.Default<E | Errors.BadRequest, R> => {
    if (!hasBody(request)) return app
    return request.text.pipe(
      // A body that cannot be read is the endpoint's to report, as it reports it today.
      Effect.orElseSucceed(() => ""),
      Effect.flatMap((text): HttpApp.Default<E | Errors.BadRequest, R> =>
        JsonDepth.exceeds(text, JsonDepth.MAX_JSON_DEPTH)
          ? Effect.fail(
            new Errors.BadRequest({ message: `the request body nests deeper than ${JsonDepth.MAX_JSON_DEPTH} levels` })
          )
          : app
      )
    )
  })
