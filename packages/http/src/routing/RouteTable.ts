/**
 * The routes of an `HttpApi`, each with one canonical spelling: literal segments exactly as
 * declared (letter case, no percent-encoding), no empty segment (`//`, a trailing `/`), no `;`,
 * a `:param` any non-empty segment (percent-decoded). The platform router (find-my-way) is more
 * lenient, so the pipeline lets through only paths this table knows (`isKnownPath`), and a proxy
 * rule written for `/v2/audit-logs` cannot be sidestepped with `/V2/AUDIT-LOGS`. The table is
 * also the dispatch (`Dispatch.ts`: the platform router is not used), and answers whether a path
 * exists, which methods it allows (405 + `Allow`) and which endpoint a rejected request was aimed
 * at (to say which part of it was invalid).
 */
import type { HttpApi, HttpApiEndpoint, HttpApiGroup, HttpMethod } from "@effect/platform"
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
  /** The routes indexed by segment (see `lookup`): a request path is one walk, not a scan of every route. */
  readonly root: Node
  /**
   * The last path looked up and the last match. A request asks the table several questions about
   * its one path (canonical? storable parameters? which route, for the headers and the access
   * log?); the answers are pure functions of the path (and method), so the second question costs
   * a string comparison. One entry: enough for the questions of one request, never stale.
   */
  readonly memo: { path?: Walked; match?: { readonly method: string; readonly url: string; readonly found: Option.Option<Match> } }
}

/** A request path walked through the table: its canonical segments (undefined when it has none) and the routes there. */
interface Walked {
  readonly path: string
  readonly parts: ReadonlyArray<string> | undefined
  readonly routes: ReadonlyArray<Route>
}

/** A trie node: the next literal segments, the next parameter, and the routes that end here. */
interface Node {
  readonly literals: Map<string, Node>
  param: Node | undefined
  /** Routes whose path ends at this node, with their declaration order. */
  readonly ends: Array<{ readonly order: number; readonly route: Route }>
}

const node = (): Node => ({ literals: new Map(), param: undefined, ends: [] })

const insert = (root: Node, route: Route, order: number) => {
  let at = root
  for (const segment of route.segments) {
    if ("param" in segment) at = at.param ??= node()
    else {
      let next = at.literals.get(segment.literal)
      if (next === undefined) at.literals.set(segment.literal, next = node())
      at = next
    }
  }
  at.ends.push({ order, route })
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

/**
 * Every endpoint of `api` in declaration order, with its annotations merged over its group's and
 * the API's: what `HttpApi.reflect` visits, without the schema analysis reflect does for each
 * endpoint (its success, error and payload members), which nothing here reads. Walked at start by
 * the route table and the access policy; through `reflect` each walk cost ~10–20 ms of CPU.
 */
export const endpoints = (
  api: HttpApi.HttpApi.Any
): ReadonlyArray<{
  readonly group: HttpApiGroup.HttpApiGroup.AnyWithProps
  readonly endpoint: HttpApiEndpoint.HttpApiEndpoint.AnyWithProps
  readonly mergedAnnotations: Context.Context<never>
}> => {
  const self = api as HttpApi.HttpApi.AnyWithProps
  const found = []
  for (const group of Object.values(self.groups) as Array<HttpApiGroup.HttpApiGroup.AnyWithProps>) {
    const groupAnnotations = Context.merge(self.annotations, group.annotations)
    for (const endpoint of Object.values(group.endpoints) as Array<HttpApiEndpoint.HttpApiEndpoint.AnyWithProps>) {
      found.push({ group, endpoint, mergedAnnotations: Context.merge(groupAnnotations, endpoint.annotations) })
    }
  }
  return found
}

export const fromApi = (api: HttpApi.HttpApi.Any): RouteTable => {
  const routes: Array<Route> = endpoints(api).map(({ endpoint, group, mergedAnnotations }) => ({
    method: endpoint.method,
    path: endpoint.path,
    endpoint,
    group,
    annotations: mergedAnnotations,
    segments: compile(endpoint.path)
  }))
  const root = node()
  routes.forEach((route, order) => insert(root, route, order))
  return { routes, root, memo: {} }
}

const tables = new WeakMap<HttpApi.HttpApi.Any, RouteTable>()

/**
 * The table of an API, built once and shared: the pipeline and the dispatch ask about the same
 * request, so the one table's memo answers the dispatch's match without a second walk.
 */
export const forApi = (api: HttpApi.HttpApi.Any): RouteTable => {
  let table = tables.get(api)
  if (table === undefined) tables.set(api, table = fromApi(api))
  return table
}

/**
 * Whether `a` is tried before `b` when both fit a path (same length): a literal segment beats a
 * parameter at the first segment where they differ, as in the platform router (find-my-way);
 * otherwise the one declared first.
 */
const precedes = (a: { readonly order: number; readonly route: Route }, b: { readonly order: number; readonly route: Route }): number => {
  for (let index = 0; index < a.route.segments.length; index++) {
    const literalA = "literal" in a.route.segments[index]!
    if (literalA !== "literal" in b.route.segments[index]!) return literalA ? -1 : 1
  }
  return a.order - b.order
}

/**
 * Every route whose path matches these segments, the most specific first. A segment may match a
 * literal and a parameter both (`/v2/insights/summary` and `/v2/insights/:id`), so both branches
 * are walked; the literal then wins, whatever the declaration order: one rule for serving a
 * request and for describing it (errors, access log, deprecation headers).
 */
const lookup = (table: RouteTable, parts: ReadonlyArray<string>): ReadonlyArray<Route> => {
  const found: Array<{ readonly order: number; readonly route: Route }> = []
  // A node's routes share one path and are in declaration order already: only routes of two
  // paths (a literal and a parameter both matching) need sorting.
  let nodesReached = 0
  const walk = (at: Node, index: number) => {
    if (index === parts.length) {
      if (at.ends.length > 0) nodesReached++
      for (const end of at.ends) found.push(end)
      return
    }
    const literal = at.literals.get(parts[index]!)
    if (literal !== undefined) walk(literal, index + 1)
    if (at.param !== undefined) walk(at.param, index + 1)
  }
  walk(table.root, 0)
  if (nodesReached > 1) found.sort(precedes)
  return found.map((end) => end.route)
}

/** The canonical segments of a request URL's path and the routes there, remembered for the next question about the same path. */
const walked = (table: RouteTable, url: string): Walked => {
  const path = pathname(url)
  const last = table.memo.path
  if (last !== undefined && last.path === path) return last
  const parts = canonicalSegments(path)
  const found: Walked = { path, parts, routes: parts === undefined ? [] : lookup(table, parts) }
  table.memo.path = found
  return found
}

const decodeParam = (raw: string): string => {
  try {
    return decodeURIComponent(raw)
  } catch {
    return raw
  }
}

/** The path parameters of a route that matches these segments. */
const paramsOf = (route: Route, parts: ReadonlyArray<string>): Record<string, string> => {
  const params: Record<string, string> = {}
  route.segments.forEach((segment, index) => {
    if ("param" in segment) params[segment.param] = decodeParam(parts[index]!)
  })
  return params
}

const find = (routes: ReadonlyArray<Route>, method: string, parts: ReadonlyArray<string>): Option.Option<Match> => {
  const route = routes.find((candidate) => candidate.method === method)
  return route === undefined ? Option.none() : Option.some({ route, params: paramsOf(route, parts) })
}

/**
 * The route for a method and a request path (query string allowed), with its path parameters.
 * HEAD falls back to GET, as in the router.
 */
export const match = (table: RouteTable, method: string, path: string): Option.Option<Match> => {
  const last = table.memo.match
  if (last !== undefined && last.url === path && last.method === method) return last.found
  const { parts, routes } = walked(table, path)
  if (parts === undefined) return Option.none()
  const exact = find(routes, method, parts)
  const found = Option.isNone(exact) && method === "HEAD" ? find(routes, "GET", parts) : exact
  table.memo.match = { method, url: path, found }
  return found
}

/** Every method some route accepts at this path; HEAD whenever GET, as the router serves it. */
export const allowedMethods = (table: RouteTable, path: string): ReadonlyArray<HttpMethod.HttpMethod> => {
  const { parts, routes } = walked(table, path)
  if (parts === undefined) return []
  const methods = new Set<HttpMethod.HttpMethod>()
  for (const route of routes) {
    methods.add(route.method)
    if (route.method === "GET") methods.add("HEAD")
  }
  return METHOD_ORDER.filter((method) => methods.has(method))
}

/** An endpoint annotation, looked up through the merged annotations of its route. */
export const annotation = <I, S>(route: Route, tag: Context.Tag<I, S>): Option.Option<S> =>
  Context.getOption(route.annotations, tag)

/** Whether some route (of any method) has exactly this path. */
export const isKnownPath = (table: RouteTable, path: string): boolean => walked(table, path).routes.length > 0
