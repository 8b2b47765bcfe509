/**
 * The API as one `HttpApp`, in place of `HttpApiBuilder.httpApp`: the same endpoint handlers (the
 * `HttpRouter.Route`s `HttpApiBuilder.group` built, with their decoders, encoders and middlewares),
 * dispatched through costline's own route table instead of the platform router. The pipeline has
 * already walked the table for this request (canonical path, storable input, 405), so dispatch is
 * the table's remembered walk (with the router's preference of a literal segment over a
 * parameter, `RouteTable.match`): no second router (find-my-way: its URL sanitising, decoding and
 * trie), and no per-request composition. The route's context is set on the request's fiber
 * (`RequestFiber`), not scoped around the handler. Each route's handler is wrapped once, when the app is made.
 */
import { HttpApi, HttpApiBuilder, type HttpApp, HttpRouter, HttpServerError, HttpServerRequest } from "@effect/platform"
import { Chunk, Context, Effect, type Fiber, Option, Tracer } from "effect"
import * as QueryString from "find-my-way-ts/QueryString"
import * as RequestFiber from "./RequestFiber.js"
import * as RouteTable from "./RouteTable.js"

const keyOf = (method: string, path: string) => `${method} ${path}`

/** What a route needs at run time: its handler wrapped as the router ran it, and its context entry. */
interface Dispatched {
  readonly route: HttpRouter.Route<unknown, unknown>
  readonly run: Effect.Effect<unknown, unknown, unknown>
}

/**
 * The request's context as the router gave it to a handler: the request's own, plus the route
 * (`HttpRouter.RouteContext`, read by the tenant and access middlewares) and the parsed query
 * string. One copy of the context, as the router made.
 */
const routeContext = (
  context: Context.Context<never>,
  route: HttpRouter.Route<unknown, unknown>,
  params: Readonly<Record<string, string>>,
  url: string
): Context.Context<never> => {
  const entries = new Map(context.unsafeMap)
  const queryAt = url.indexOf("?")
  entries.set(HttpServerRequest.ParsedSearchParams.key, QueryString.parse(queryAt === -1 ? "" : url.slice(queryAt + 1)))
  entries.set(HttpRouter.RouteContext.key, { [HttpRouter.RouteContextTypeId]: HttpRouter.RouteContextTypeId, route, params })
  return Context.unsafeMake(entries)
}

export const httpApp: Effect.Effect<
  HttpApp.Default<never, HttpRouter.HttpRouter.DefaultServices>,
  never,
  HttpApiBuilder.Router | HttpApi.Api | HttpApiBuilder.Middleware
> = Effect.gen(function*() {
  const { api } = yield* HttpApi.Api
  if (api.middlewares.size > 0) {
    // HttpApiBuilder applies API-level middlewares around its router; this dispatch does not.
    return yield* Effect.dieMessage("costline's dispatch does not run API-level HttpApi middlewares: declare them on the groups")
  }
  const router = yield* HttpApiBuilder.Router.router
  const table = RouteTable.forApi(api)
  const built = new Map(Chunk.toReadonlyArray(router.routes).map((route) => [keyOf(route.method, route.path), route]))
  const dispatched = new Map<RouteTable.Route, Dispatched>()
  for (const declared of table.routes) {
    const route = built.get(keyOf(declared.method, declared.path))
    // An endpoint without a handler is not served (the router answered it RouteNotFound too).
    if (route === undefined) continue
    // The router ran a handler interruptible unless declared otherwise; its answer is already a
    // response (HttpApiBuilder encodes the success), so no `Respondable` conversion.
    dispatched.set(declared, { route, run: route.uninterruptible ? route.handler : Effect.interruptible(route.handler) })
  }

  const dispatch = Effect.withFiberRuntime<unknown, unknown, unknown>((fiber: Fiber.RuntimeFiber<unknown, unknown>) => {
    const context = fiber.currentContext
    const request = Context.unsafeGet(context, HttpServerRequest.HttpServerRequest)
    const matched = RouteTable.match(table, request.method, request.url)
    const target = Option.isSome(matched) ? dispatched.get(matched.value.route) : undefined
    if (target === undefined || Option.isNone(matched)) return Effect.fail(new HttpServerError.RouteNotFound({ request }))
    const span = Context.getOption(context, Tracer.ParentSpan)
    if (Option.isSome(span) && span.value._tag === "Span") span.value.attribute("http.route", target.route.path)
    return Effect.zipRight(
      RequestFiber.setContext(routeContext(context, target.route, matched.value.params, request.url)),
      target.run
    )
  })

  const apiMiddleware = yield* (yield* HttpApiBuilder.Middleware).retrieve
  return apiMiddleware(dispatch as HttpApp.Default) as HttpApp.Default<never, HttpRouter.HttpRouter.DefaultServices>
})
