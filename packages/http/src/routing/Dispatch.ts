/**
 * The API as one `HttpApp`, in place of `HttpApiBuilder.httpApp`: the routes `Routes.layer`
 * compiled (decoders, middlewares, handler, encoder), dispatched through costline's own route
 * table. The pipeline has already walked the table for this request (canonical path, storable
 * input, 405), so dispatch is the table's remembered walk (with the router's preference of a
 * literal segment over a parameter, `RouteTable.match`): no platform router, and no
 * per-request composition beyond the route's own chain.
 *
 * The request's context holds the route's services (what the platform merged into the handler's
 * context per request) beneath the request's own entries, the parsed query string and the route
 * (`HttpRouter.RouteContext`, read by the tenant and access middlewares). A context its host made
 * for the request alone (`NodeServing`, `RequestFiber.ownContext`) gets them in place: the
 * services go beneath its base, made once per host. Any other is replaced, once, by a new one
 * over the services (a `LayeredMap`: the services are not copied), set on the request's fiber
 * (`RequestFiber`), not scoped around the handler.
 */
import { HttpApiBuilder, type HttpApp, HttpRouter, HttpServerError, HttpServerRequest } from "@effect/platform"
import { LayeredMap } from "@costline/core"
import { Context, Effect, type Fiber, Option, Tracer } from "effect"
import * as QueryString from "find-my-way-ts/QueryString"
import * as RequestFiber from "./RequestFiber.js"
import * as RouteTable from "./RouteTable.js"
import * as Routes from "./Routes.js"

export const httpApp: Effect.Effect<
  HttpApp.Default<never, HttpRouter.HttpRouter.DefaultServices>,
  never,
  Routes.Routes | HttpApiBuilder.Middleware
> = Effect.gen(function*() {
  const { api, routes } = yield* Routes.Routes
  const table = RouteTable.forApi(api)
  // An endpoint without a handler is not served (the platform router answered it RouteNotFound too).
  const compiled = new Map<RouteTable.Route, Routes.Compiled>()
  for (const declared of table.routes) {
    const route = routes.get(Routes.keyOf(declared.method, declared.path))
    if (route !== undefined) compiled.set(declared, route)
  }

  // A host's services with the routes' beneath them (the host's win, as the request's entries
  // did over the routes' when merged per request): one map per host base, made on its first request.
  const merged = new WeakMap<ReadonlyMap<string, unknown>, { readonly services: ReadonlyMap<string, unknown>; readonly map: ReadonlyMap<string, unknown> }>()
  const beneath = (base: ReadonlyMap<string, unknown>, services: ReadonlyMap<string, unknown>): ReadonlyMap<string, unknown> => {
    const known = merged.get(base)
    if (known !== undefined && known.services === services) return known.map
    const map = new Map(services)
    for (const [key, value] of base) map.set(key, value)
    merged.set(base, { services, map })
    return map
  }

  const dispatch = Effect.withFiberRuntime<unknown, unknown, unknown>((fiber: Fiber.RuntimeFiber<unknown, unknown>) => {
    const context = fiber.currentContext
    const request = Context.unsafeGet(context, HttpServerRequest.HttpServerRequest)
    const matched = RouteTable.match(table, request.method, request.url)
    const target = Option.isSome(matched) ? compiled.get(matched.value.route) : undefined
    if (target === undefined || Option.isNone(matched)) return Effect.fail(new HttpServerError.RouteNotFound({ request }))
    const span = Context.getOption(context, Tracer.ParentSpan)
    if (Option.isSome(span) && span.value._tag === "Span") span.value.attribute("http.route", target.route.path)
    const { params } = matched.value
    const queryAt = request.url.indexOf("?")
    const query = QueryString.parse(queryAt === -1 ? "" : request.url.slice(queryAt + 1))
    const routeContext = { [HttpRouter.RouteContextTypeId]: HttpRouter.RouteContextTypeId, route: target.route, params }
    const input = { fiber, request, params, query }
    // The request's context made by its host for it alone: the route's services go beneath its
    // base (made once per base), the query and the route into it. No new context, no change of the fiber's.
    const owned = RequestFiber.ownedMap(context)
    if (owned !== undefined) {
      owned.rebase(beneath(owned.base, target.services))
      owned.set(HttpServerRequest.ParsedSearchParams.key, query)
      owned.set(HttpRouter.RouteContext.key, routeContext)
      return target.serve(input)
    }
    // Else one context for the request: the route's services, the request's entries over them (as
    // the platform's merge gave them precedence), the query and the route. Layered over the
    // route's services: not a copy of them per request.
    const entries = new LayeredMap.LayeredMap<string, unknown>(target.services)
    for (const [key, value] of context.unsafeMap) entries.set(key, value)
    entries.set(HttpServerRequest.ParsedSearchParams.key, query)
    entries.set(HttpRouter.RouteContext.key, routeContext)
    return Effect.zipRight(RequestFiber.setContext(Context.unsafeMake(entries)), target.serve(input))
  })

  const apiMiddleware = yield* (yield* HttpApiBuilder.Middleware).retrieve
  return apiMiddleware(dispatch as HttpApp.Default) as HttpApp.Default<never, HttpRouter.HttpRouter.DefaultServices>
})
