/**
 * Every endpoint's route, compiled once by one layer from the `HttpApi` definition and the
 * groups' handlers (`Group.group`), in place of the platform's `HttpApiBuilder.group` layers.
 *
 * What the platform built per group, and what it ran per request:
 * - a layer per group (`Router.use`: a scoped layer and the `provide` of the router under it, five
 *   layers for the memo map): here one layer runs every group's build and compiles its routes;
 * - per request, `Effect.mapInputContext` around the handler merging the group's ~65 services
 *   into the request's context (a copy of both), an `Effect.gen` generator, `Fiber.getCurrentFiber`
 *   and three context look-ups, and for a middleware with `provides` a scoped context change:
 *   here the route's services (the layer's context, shared by every route) and the request's own
 *   entries are one context, made once by the dispatch and set on the request's fiber; what a
 *   middleware provides is added to that context (it was made for this request alone), and the
 *   decoders, the handler and the encoder are a plain `Effect.flatMap` chain.
 *
 * Kept exactly: the decoders (path, payload from the body by content type or from the query for
 * a method without a body, headers, query parameters with the platform's normalisation, in that
 * order), the middlewares' order (an endpoint's run before its group's; of each, the one declared
 * last runs first) and `optional`, `uninterruptible`, the success encoders (`Group`), and the error mapping
 * (`Effect.catchIf(ParseResult.isParseError, HttpApiDecodeError.refailParseError)` around decoding,
 * handler and encoding, not around the middlewares). What costline does not use is refused when
 * the layer is built rather than served wrongly: security middlewares, multipart payloads,
 * API-level middlewares. `test/unit/Group.test.ts` compares the answers with the platform's.
 */
import {
  type HttpApi,
  HttpApiError,
  HttpApiMiddleware,
  HttpApiSchema,
  type HttpApiEndpoint,
  type HttpApiGroup,
  HttpMethod,
  HttpRouter,
  type HttpServerRequest,
  HttpServerResponse,
  UrlParams
} from "@effect/platform"
import { Context, Effect, Either, type Fiber, Layer, Option, ParseResult, Schema, Scope } from "effect"
import * as Group from "../api/Group.js"
import * as RequestFiber from "./RequestFiber.js"
import { normalizeQuery } from "./UrlParams.js"

type Query = Readonly<Record<string, string | Array<string>>>

/** A compiled route: its platform route object (for `HttpRouter.RouteContext`) and how to serve it. */
export interface Compiled {
  readonly route: HttpRouter.Route<unknown, unknown>
  /** The services every request of the route sees beneath its own context (the layer's context). */
  readonly services: ReadonlyMap<string, unknown>
  /**
   * The route's answer to a request, run on the request's fiber once its context (the route's
   * services and the request's entries, `Dispatch`) is set.
   */
  readonly serve: (input: Input) => Effect.Effect<HttpServerResponse.HttpServerResponse, unknown>
}

/** The API and its compiled routes, by method and path template. */
export class Routes extends Context.Tag("@costline/http/Routes")<Routes, {
  readonly api: HttpApi.HttpApi.AnyWithProps
  readonly routes: ReadonlyMap<string, Compiled>
}>() {}

export const keyOf = (method: string, path: string) => `${method} ${path}`

interface Middleware {
  readonly tag: HttpApiMiddleware.TagClassAny
  readonly effect: Effect.Effect<unknown, unknown>
}

const refuse = (what: string) => Effect.dieMessage(`costline's routes do not support ${what}`)

/** The payload as the platform reads it: the query for a method without a body, else the body by its content type. */
const requestPayload = (request: HttpServerRequest.HttpServerRequest, query: Query): Effect.Effect<unknown> => {
  if (!HttpMethod.hasBody(request.method)) return Effect.succeed(query)
  const contentType = request.headers["content-type"] ? request.headers["content-type"].toLowerCase().trim() : "application/json"
  if (contentType.includes("application/json")) return Effect.orDie(request.json)
  if (contentType.includes("multipart/form-data")) return Effect.dieMessage("costline's routes do not read multipart bodies")
  if (contentType.includes("x-www-form-urlencoded")) return Effect.map(Effect.orDie(request.urlParamsBody), UrlParams.toRecord)
  if (contentType.startsWith("text/")) return Effect.orDie(request.text)
  return Effect.map(Effect.orDie(request.arrayBuffer), (buffer) => new Uint8Array(buffer))
}

/** What a route reads of its request, and the fiber serving it. */
export interface Input {
  readonly fiber: Fiber.RuntimeFiber<unknown, unknown>
  readonly request: HttpServerRequest.HttpServerRequest
  readonly params: Readonly<Record<string, string | undefined>>
  readonly query: Query
}

/**
 * One decoder of the handler's input: the key it sets and how it reads it. A decoder of what the
 * request already holds (path, headers, query) is also given as a value-returning function
 * (`now`), run in the step that dispatches instead of as an effect of its own; what it cannot
 * decode that way (a schema with an asynchronous part) it leaves to `decode`.
 */
interface Step {
  readonly key: "path" | "payload" | "headers" | "urlParams"
  readonly decode: (input: Input) => Effect.Effect<unknown, ParseResult.ParseError, unknown>
  readonly now?: (input: Input) => Either.Either<unknown, ParseResult.ParseError>
}

/**
 * Whether `Schema.decodeUnknownEither` gave up somewhere in `issue` because a part of the schema
 * needs an effect (asynchronous work, a service): such a request is decoded by `decode` instead.
 */
const needsEffect = (issue: ParseResult.ParseIssue): boolean => {
  switch (issue._tag) {
    case "Forbidden":
      return true
    case "Pointer":
    case "Refinement":
    case "Transformation":
      return needsEffect(issue.issue)
    case "Composite":
      return Array.isArray(issue.issues) ? issue.issues.some(needsEffect) : needsEffect(issue.issues as ParseResult.ParseIssue)
    default:
      return false
  }
}

/** The value-returning decoder of `schema` (its context, if it needs one, makes it give up: `needsEffect`). */
const decodeNow = (schema: Schema.Schema.Any) => Schema.decodeUnknownEither(schema as Schema.Schema<unknown, unknown, never>)

const compile = (item: Group.Item, middlewares: ReadonlyArray<Middleware>, services: ReadonlyMap<string, unknown>): Effect.Effect<Compiled> => {
  const endpoint = item.endpoint
  const payloadAst = Option.getOrUndefined(Option.map(endpoint.payloadSchema, (schema) => schema.ast))
  if (payloadAst !== undefined && (HttpApiSchema.getMultipart(payloadAst) !== undefined || HttpApiSchema.getMultipartStream(payloadAst) !== undefined)) {
    return refuse(`multipart payloads (${endpoint.method} ${endpoint.path})`)
  }
  const security = middlewares.find(({ tag }) => HttpApiMiddleware.isSecurity(tag))
  if (security !== undefined) return refuse(`security middlewares (${security.tag.key} on ${endpoint.method} ${endpoint.path})`)

  const steps: Array<Step> = []
  if (Option.isSome(endpoint.pathSchema)) {
    const decode = Schema.decodeUnknown(endpoint.pathSchema.value)
    const now = decodeNow(endpoint.pathSchema.value)
    steps.push({ key: "path", decode: (input) => decode(input.params), now: (input) => now(input.params) })
  }
  if (Option.isSome(endpoint.payloadSchema) && !item.withFullRequest) {
    const decode = Schema.decodeUnknown(endpoint.payloadSchema.value)
    steps.push({ key: "payload", decode: (input) => Effect.flatMap(requestPayload(input.request, input.query), decode) })
  }
  if (Option.isSome(endpoint.headersSchema)) {
    const decode = Schema.decodeUnknown(endpoint.headersSchema.value)
    const now = decodeNow(endpoint.headersSchema.value)
    steps.push({ key: "headers", decode: (input) => decode(input.request.headers), now: (input) => now(input.request.headers) })
  }
  if (Option.isSome(endpoint.urlParamsSchema)) {
    const schema = endpoint.urlParamsSchema.value
    const decode = Schema.decodeUnknown(schema)
    const now = decodeNow(schema)
    steps.push({
      key: "urlParams",
      decode: (input) => decode(normalizeQuery(input.query, schema.ast)),
      now: (input) => now(normalizeQuery(input.query, schema.ast))
    })
  }
  const encode = Group.encoderOf(endpoint)
  const handler = item.handler

  /** The decoders from `index` on, then the handler and its success's encoding. */
  const from = (index: number, input: Input, args: Record<string, unknown>): Effect.Effect<HttpServerResponse.HttpServerResponse, unknown, unknown> => {
    for (; index < steps.length; index++) {
      const step = steps[index]!
      const decoded = step.now?.(input)
      if (decoded === undefined || (Either.isLeft(decoded) && needsEffect(decoded.left.issue))) {
        const next = index + 1
        return Effect.flatMap(step.decode(input), (value) => {
          args[step.key] = value
          return from(next, input, args)
        })
      }
      if (Either.isLeft(decoded)) return Effect.fail(decoded.left)
      args[step.key] = decoded.right
    }
    return Effect.flatMap(handler(args), (value) => HttpServerResponse.isServerResponse(value) ? Effect.succeed(value) : encode(value))
  }

  const core = (input: Input) =>
    Effect.catchIf(from(0, input, { request: input.request }), ParseResult.isParseError, HttpApiError.HttpApiDecodeError.refailParseError)

  // The middlewares around the core, innermost first, as the platform's `applyMiddleware` wraps
  // them; each continuation is made when its middleware has run, so nothing is decoded for a
  // request a middleware refuses. What one provides is added to the request's context, which
  // the request's fiber has to itself (made by the dispatch, or a copy made during this request).
  let chain: (input: Input) => Effect.Effect<HttpServerResponse.HttpServerResponse, unknown, unknown> = core
  for (const { effect: middleware, tag } of middlewares) {
    const previous = chain
    const key = tag.provides?.key
    const then = key === undefined
      ? (input: Input) => () => previous(input)
      : (input: Input) => (value: unknown) => {
        input.fiber.currentContext.unsafeMap.set(key, value)
        return previous(input)
      }
    chain = tag.optional
      ? (input) => Effect.matchEffect(middleware, { onFailure: () => previous(input), onSuccess: then(input) })
      : (input) => Effect.flatMap(middleware, then(input))
  }
  const run = chain

  const route = HttpRouter.makeRoute(endpoint.method, endpoint.path as HttpRouter.PathInput, Effect.dieMessage("served by costline's dispatch"), {
    uninterruptible: item.uninterruptible
  }) as HttpRouter.Route<unknown, unknown>
  // The router ran a handler interruptible unless declared otherwise. A request's fiber that
  // already is what the route asks (`NodeServing`'s are interruptible) runs it as it is: a region
  // of other flags (`Effect.interruptible`) costs ~5 KB of survivors per request, every
  // collection's copy and promotion (bench/gc-promotion.ts). What the decoders, the handler and
  // the middlewares need is in the request's context.
  const serve = ((input: Input) => {
    const interruptible = RequestFiber.isInterruptible(input.fiber)
    if (item.uninterruptible) return interruptible ? Effect.uninterruptible(run(input)) : run(input)
    return interruptible ? run(input) : Effect.interruptible(run(input))
  }) as Compiled["serve"]
  return Effect.succeed({ route, services, serve })
}

/** The middlewares of an endpoint in the platform's order: the group's, then the endpoint's (a tag in both keeps the group's place). */
const middlewaresOf = (
  group: HttpApiGroup.HttpApiGroup.AnyWithProps,
  endpoint: HttpApiEndpoint.HttpApiEndpoint.AnyWithProps,
  context: Context.Context<never>
): ReadonlyArray<Middleware> => {
  const byKey = new Map<string, Middleware>()
  for (const tags of [group.middlewares, endpoint.middlewares]) {
    for (const tag of tags) byKey.set(tag.key, { tag, effect: Context.unsafeGet(context, tag as never) })
  }
  return [...byKey.values()]
}

/** The groups of `Groups` that `Lives` leaves unimplemented. */
type Missing<Groups extends HttpApiGroup.HttpApiGroup.Any, Lives extends ReadonlyArray<Group.GroupLive.Any>> = Exclude<
  HttpApiGroup.HttpApiGroup.Name<Groups>,
  Group.GroupLive.Name<Lives[number]>
>

/** `Lives` when it implements every group of the API; else a type naming the missing groups. */
export type Complete<Groups extends HttpApiGroup.HttpApiGroup.Any, Lives extends ReadonlyArray<Group.GroupLive.Any>> =
  [Missing<Groups, Lives>] extends [never] ? Lives : `Group not implemented: ${Missing<Groups, Lives>}`

/**
 * The layer of every route of `api`, from its groups' handlers: one for each group of the API
 * (a group left out is a type error, as `HttpApiBuilder.api` makes it). Its requirements are the
 * groups' (their handlers' services and middlewares); every build runs in one context, which
 * is also the services each request's handler sees.
 */
export const layer = <
  ApiId extends string,
  Groups extends HttpApiGroup.HttpApiGroup.Any,
  ApiError,
  ApiR,
  const Lives extends ReadonlyArray<Group.GroupLive<ApiId, string, any, any>>
>(
  api: HttpApi.HttpApi<ApiId, Groups, ApiError, ApiR>,
  groups: Complete<Groups, Lives>
): Layer.Layer<Routes, Group.GroupLive.Error<Lives[number]>, Group.GroupLive.Context<Lives[number]>> =>
  Layer.scoped(
    Routes,
    Effect.gen(function*() {
      const definition = api as unknown as HttpApi.HttpApi.AnyWithProps
      if (definition.middlewares.size > 0) {
        // HttpApiBuilder applies API-level middlewares around its router; these routes do not.
        return yield* Effect.dieMessage("costline's routes do not run API-level HttpApi middlewares: declare them on the groups")
      }
      const context = yield* Effect.context<never>()
      // Not the layer's scope: a request must not extend a long-lived scope (as `NodeServing` leaves it out).
      const services: ReadonlyMap<string, unknown> = Context.omit(Scope.Scope)(context).unsafeMap
      const routes = new Map<string, Compiled>()
      for (const live of groups as unknown as ReadonlyArray<Group.GroupLive.Any>) {
        const built = yield* (live.build as Effect.Effect<Group.Built>)
        for (const item of built.items) {
          const compiled = yield* compile(item, middlewaresOf(built.group, item.endpoint, context), services)
          routes.set(keyOf(item.endpoint.method, item.endpoint.path), compiled)
        }
      }
      return { api: definition, routes }
    })
  ) as never
