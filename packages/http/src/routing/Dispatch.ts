/**
 * The API as one `HttpApp`, in place of `HttpApiBuilder.httpApp`: the routes `Routes.layer`
 * compiled (decoders, middlewares, handler, encoder), dispatched through costline's own route
 * table. The pipeline has already walked the table for this request (canonical path, storable
 * input, 405), so dispatch is the table's remembered walk (with the router's preference of a
 * literal segment over a parameter, `RouteTable.match`): no platform router, and no
 * per-request composition beyond the route's own chain.
 *
 * The request's context is made once here: the route's services (what the platform merged into
 * the handler's context per request), the request's own entries over them (a `LayeredMap`: the
 * services are not copied), the parsed query
 * string and the route (`HttpRouter.RouteContext`, read by the tenant and access middlewares).
 * It is set on the request's fiber (`RequestFiber`), not scoped around the handler.
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
    // One context for the request: the route's services, the request's entries over them (as the
    // platform's merge gave them precedence), the query and the route.
    // Layered over the route's services: not a copy of them per request.
    const entries = new LayeredMap.LayeredMap<string, unknown>(target.services)
    for (const [key, value] of context.unsafeMap) entries.set(key, value)
    entries.set(HttpServerRequest.ParsedSearchParams.key, query)
    entries.set(HttpRouter.RouteContext.key, { [HttpRouter.RouteContextTypeId]: HttpRouter.RouteContextTypeId, route: target.route, params })
    return Effect.zipRight(RequestFiber.setContext(Context.unsafeMake(entries)), target.serve({ fiber, request, params, query }))
  })

  const apiMiddleware = yield* (yield* HttpApiBuilder.Middleware).retrieve
  return apiMiddleware(dispatch as HttpApp.Default) as HttpApp.Default<never, HttpRouter.HttpRouter.DefaultServices>
})
