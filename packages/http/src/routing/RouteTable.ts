/**
 * The routes of an `HttpApi`, each with one canonical spelling: literal segments exactly as
 * declared (letter case, no percent-encoding), no empty segment (`//`, a trailing `/`), no `;`,
 * a `:param` any non-empty segment (percent-decoded). The platform router (find-my-way) is more
 * lenient, so the pipeline lets through only paths this table knows (`isKnownPath`), and a proxy
 * rule written for `/v2/audit-logs` cannot be sidestepped with `/V2/AUDIT-LOGS`. The router
 * stays the authority for dispatch; this table answers what it cannot: whether a path exists,
 * which methods it allows (405 + `Allow`) and which endpoint a rejected request was aimed at (to
 * say which part of it was invalid).
 */
import type { HttpApiEndpoint, HttpApiGroup, HttpMethod } from "@effect/platform"
import { HttpApi } from "@effect/platform"
import { Context, Option } from "effect"

type Segment = { readonly literal: string } | { readonly param: string }

export interface Route {
  readonly method: HttpMethod.HttpMethod
  readonly path: string
  readonly endpoint: HttpApiEndpoint.HttpApiEndpoint.AnyWithProps
  readonly group: HttpApiGroup.HttpApiGroup.AnyWithProps
  /** The endpoint's annotations merged over its group's and the API's. */
  readonly annotations: Context.Context<never>
  readonly segments: ReadonlyArray<Segment>
}

export interface RouteTable {
  readonly routes: ReadonlyArray<Route>
}

export interface Match {
  readonly route: Route
  readonly params: Readonly<Record<string, string>>
}

/** Method order of the `Allow` header. */
const METHOD_ORDER: ReadonlyArray<HttpMethod.HttpMethod> = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]

/** A request URL (path and query, as servers receive it) without its query string. */
export const pathname = (url: string): string => url.split("?", 1)[0]!

/** The non-empty segments of a request path, query string dropped: `//api/x/?a=1` → `["api", "x"]`. */
export const pathSegments = (url: string): Array<string> =>
  pathname(url).split("/").filter((segment) => segment.length > 0)

/**
 * The segments of a request path in its canonical form, or undefined when it has another: empty
 * segments (`//v2`, `/v2/`), or a `;` (which the router takes for the end of the path).
 */
export const canonicalSegments = (url: string): ReadonlyArray<string> | undefined => {
  const path = pathname(url)
  if (!path.startsWith("/") || path.includes(";")) return undefined
  if (path === "/") return []
  const segments = path.slice(1).split("/")
  return segments.includes("") ? undefined : segments
}

const compile = (path: string): ReadonlyArray<Segment> =>
  pathSegments(path).map((segment) => segment.startsWith(":") ? { param: segment.slice(1) } : { literal: segment })

export const fromApi = (api: HttpApi.HttpApi.Any): RouteTable => {
  const routes: Array<Route> = []
  HttpApi.reflect(api as HttpApi.HttpApi.AnyWithProps, {
    onGroup: () => {},
    onEndpoint: ({ endpoint, group, mergedAnnotations }) => {
      routes.push({
        method: endpoint.method,
        path: endpoint.path,
        endpoint: endpoint as unknown as HttpApiEndpoint.HttpApiEndpoint.AnyWithProps,
        group,
        annotations: mergedAnnotations,
        segments: compile(endpoint.path)
      })
    }
  })
  return { routes }
}

const decodeParam = (raw: string): string => {
  try {
    return decodeURIComponent(raw)
  } catch {
    return raw
  }
}

const matchSegments = (
  segments: ReadonlyArray<Segment>,
  parts: ReadonlyArray<string>
): Record<string, string> | undefined => {
  if (segments.length !== parts.length) return undefined
  const params: Record<string, string> = {}
  for (const [index, segment] of segments.entries()) {
    const part = parts[index]!
    if ("param" in segment) params[segment.param] = decodeParam(part)
    else if (segment.literal !== part) return undefined
  }
  return params
}

const find = (table: RouteTable, method: string, parts: ReadonlyArray<string>): Option.Option<Match> => {
  for (const route of table.routes) {
    if (route.method !== method) continue
    const params = matchSegments(route.segments, parts)
    if (params !== undefined) return Option.some({ route, params })
  }
  return Option.none()
}

/**
 * The route for a method and a request path (query string allowed), with its path parameters.
 * HEAD falls back to GET, as in the router.
 */
export const match = (table: RouteTable, method: string, path: string): Option.Option<Match> => {
  const parts = canonicalSegments(path)
  if (parts === undefined) return Option.none()
  const found = find(table, method, parts)
  return Option.isNone(found) && method === "HEAD" ? find(table, "GET", parts) : found
}

/** Every method some route accepts at this path; HEAD whenever GET, as the router serves it. */
export const allowedMethods = (table: RouteTable, path: string): ReadonlyArray<HttpMethod.HttpMethod> => {
  const parts = canonicalSegments(path)
  if (parts === undefined) return []
  const methods = new Set<HttpMethod.HttpMethod>()
  for (const route of table.routes) {
    if (matchSegments(route.segments, parts) === undefined) continue
    methods.add(route.method)
    if (route.method === "GET") methods.add("HEAD")
  }
  return METHOD_ORDER.filter((method) => methods.has(method))
}

/** An endpoint annotation, looked up through the merged annotations of its route. */
export const annotation = <I, S>(route: Route, tag: Context.Tag<I, S>): Option.Option<S> =>
  Context.getOption(route.annotations, tag)

/** Whether some route (of any method) has exactly this path. */
export const isKnownPath = (table: RouteTable, path: string): boolean => {
  const parts = canonicalSegments(path)
  return parts !== undefined && table.routes.some((route) => matchSegments(route.segments, parts) !== undefined)
}
