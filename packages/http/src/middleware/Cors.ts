/**
 * Cross-origin access for browser clients, off unless the host lists origins. Allowed origins get
 * `Access-Control-Allow-Origin` on every response (errors included) with the API's own headers
 * exposed, and their preflights are answered here with the methods the path really serves.
 * Credentials are bearer tokens in a header, never cookies, so credentialed CORS is not needed.
 */
import { type HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { Effect } from "effect"
import * as RequestFiber from "../routing/RequestFiber.js"
import * as RouteTable from "../routing/RouteTable.js"

export interface CorsOptions {
  /** Origins allowed to call the API from a browser (`https://app.example.com`), or `"*"` for any. */
  readonly origins: ReadonlyArray<string> | "*"
  /** How long a browser may reuse a preflight answer. Default 600 seconds. */
  readonly maxAgeSeconds?: number | undefined
}

/** What a browser script may send: credentials, tenant, conditions and a correlation id. */
export const ALLOWED_HEADERS = ["authorization", "content-type", "if-match", "if-none-match", "x-request-id", "x-tenant-id"]

/** What a browser script may read beyond the CORS-safelisted headers. */
export const EXPOSED_HEADERS = [
  "etag",
  "location",
  "retry-after",
  "ratelimit",
  "ratelimit-policy",
  "x-request-id",
  "deprecation",
  "sunset",
  "link",
  "allow",
  "www-authenticate"
]

const DEFAULT_MAX_AGE_SECONDS = 600

const isAllowed = (options: CorsOptions, origin: string): boolean =>
  options.origins === "*" || options.origins.includes(origin)

/** `*` when any origin may call and nothing depends on which one; else the origin itself. */
const allowOrigin = (options: CorsOptions, origin: string): Record<string, string> =>
  options.origins === "*"
    ? { "access-control-allow-origin": "*" }
    : { "access-control-allow-origin": origin, vary: "Origin" }

const preflight = (options: CorsOptions, origin: string, methods: ReadonlyArray<string>) =>
  HttpServerResponse.empty({
    status: 204,
    headers: {
      ...allowOrigin(options, origin),
      "access-control-allow-methods": methods.join(", "),
      "access-control-allow-headers": ALLOWED_HEADERS.join(", "),
      "access-control-max-age": String(options.maxAgeSeconds ?? DEFAULT_MAX_AGE_SECONDS)
    }
  })

/**
 * The rule for one request: the answer to an allowed origin's preflight; else undefined, with the
 * allowed origin's headers recorded in the request's facts for its answer, whatever it is.
 * Undefined without options (CORS off).
 */
export const make = (options: CorsOptions | undefined, routes: RouteTable.RouteTable) =>
  options === undefined ? undefined : (
    request: HttpServerRequest.HttpServerRequest,
    facts: RequestFiber.Facts
  ): Effect.Effect<HttpServerResponse.HttpServerResponse> | undefined => {
    const origin = request.headers["origin"]
    if (origin === undefined || !isAllowed(options, origin)) return undefined
    const methods = RouteTable.allowedMethods(routes, request.url)
    // A preflight for a path the API does not serve falls through to its 404.
    if (request.method === "OPTIONS" && request.headers["access-control-request-method"] !== undefined && methods.length > 0) {
      return Effect.succeed(preflight(options, origin, methods))
    }
    RequestFiber.recordHeaders(facts, { ...allowOrigin(options, origin), "access-control-expose-headers": EXPOSED_HEADERS.join(", ") })
    return undefined
  }
