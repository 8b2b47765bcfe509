/**
 * Serving the API under a path prefix of a host application (`/cost/v2/teams`). The prefix is
 * taken off each request before routing, and put back on the links responses carry (`Location`,
 * the v1 `Link` to the successor route), so a client can follow them on the host.
 */
import { HttpApp, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { Effect } from "effect"

/** `/cost` from `cost`, `/cost/` or `/cost`; "" (no prefix) from undefined, "" or "/". */
export const normalize = (basePath: string | undefined): string => {
  const trimmed = (basePath ?? "").replace(/^\/+|\/+$/g, "")
  return trimmed === "" ? "" : `/${trimmed}`
}

/**
 * The request's path and query as the API sees them, or undefined when `url` is outside
 * `basePath`. `/cost` and `/cost?x` become `/` and `/?x`; `/costs` is outside `/cost`.
 */
export const strip = (basePath: string, url: string): string | undefined => {
  if (basePath === "") return url
  if (!url.startsWith(basePath)) return undefined
  const rest = url.slice(basePath.length)
  if (rest === "" || rest.startsWith("?")) return `/${rest}`
  return rest.startsWith("/") ? rest : undefined
}

/** A path of this origin (`/v2/...`), as opposed to a full URL or a network-path (`//host`). */
const isOriginPath = (reference: string) => reference.startsWith("/") && !reference.startsWith("//")

/** The response with the prefix put back on the paths its `Location` and `Link` headers name. */
export const prefixLinks = (
  basePath: string,
  response: HttpServerResponse.HttpServerResponse
): HttpServerResponse.HttpServerResponse => {
  if (basePath === "") return response
  const { link, location } = response.headers
  const headers: Record<string, string> = {}
  if (location !== undefined && isOriginPath(location)) headers["location"] = `${basePath}${location}`
  if (link !== undefined) headers["link"] = link.replace(/<\/(?!\/)/g, `<${basePath}/`)
  return Object.keys(headers).length === 0 ? response : HttpServerResponse.setHeaders(response, headers)
}

/**
 * `app` served under `basePath`; `outside` answers requests whose path is not under it. The
 * header rewrite is registered once `app` has run, so it comes after the pre-response handlers
 * `app` registered (they are what set `Location`).
 */
export const serveUnder = <E, R>(
  basePath: string,
  outside: (request: HttpServerRequest.HttpServerRequest) => HttpServerResponse.HttpServerResponse,
  app: HttpApp.Default<E, R>
): HttpApp.Default<E, R | HttpServerRequest.HttpServerRequest> => {
  if (basePath === "") return app
  return Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) => {
    const url = strip(basePath, request.url)
    if (url === undefined) return Effect.succeed(outside(request))
    return app.pipe(
      Effect.provideService(HttpServerRequest.HttpServerRequest, request.modify({ url })),
      Effect.ensuring(HttpApp.appendPreResponseHandler((_request, response) => Effect.succeed(prefixLinks(basePath, response))))
    )
  })
}
