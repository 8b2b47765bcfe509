import {
  HttpApi,
  HttpApiBuilder,
  HttpApiEndpoint,
  HttpApiGroup,
  HttpRouter,
  HttpServerError,
  HttpServerRequest,
  HttpServerResponse
} from "@effect/platform"
import { Cause, Context, Effect, Exit, Layer, Runtime, RuntimeFlags, Schema } from "effect"
import { describe, expect, it } from "vitest"
import * as Group from "../../src/api/Group.js"
import * as Dispatch from "../../src/routing/Dispatch.js"
import * as RequestFiber from "../../src/routing/RequestFiber.js"
import * as Routes from "../../src/routing/Routes.js"

const Item = Schema.Struct({ id: Schema.String, route: Schema.String, tags: Schema.Array(Schema.String) })
const Api = HttpApi.make("dispatch").add(
  HttpApiGroup.make("items")
    .add(
      HttpApiEndpoint.get("getItem", "/items/:id")
        .setPath(Schema.Struct({ id: Schema.String }))
        .setUrlParams(Schema.Struct({ tag: Schema.optional(Schema.Array(Schema.String)) }))
        .addSuccess(Item)
    )
    // Declared after the parameter route that also fits it: the literal wins, as in the router it replaces.
    .add(HttpApiEndpoint.get("summary", "/items/summary").addSuccess(Schema.String))
    .add(HttpApiEndpoint.del("deleteItem", "/items/:id").setPath(Schema.Struct({ id: Schema.String })))
)

const ItemsLive = Group.group(Api, "items", (handlers) =>
  handlers
    .handle("getItem", ({ path, urlParams }) =>
      Effect.map(HttpRouter.RouteContext, ({ route }) => ({ id: path.id, route: route.path, tags: urlParams.tag ?? [] })))
    .handle("summary", () => Effect.succeed("summary"))
    .handle("deleteItem", () => Effect.void))

const appOf = <A, E>(routes: Layer.Layer<Routes.Routes, E>) =>
  Effect.runPromiseExit(
    Dispatch.httpApp.pipe(Effect.provide(Layer.mergeAll(routes, HttpApiBuilder.Middleware.layer)))
  ) as Promise<Exit.Exit<A, unknown>>

const serve = async (method: string, url: string) => {
  const exit = await appOf<Effect.Effect<HttpServerResponse.HttpServerResponse, unknown, HttpServerRequest.HttpServerRequest>, never>(
    Routes.layer(Api, [ItemsLive])
  )
  if (Exit.isFailure(exit)) throw new Error(Cause.pretty(exit.cause))
  const request = HttpServerRequest.fromWeb(new Request(`http://localhost${url}`, { method }))
  return Effect.runPromiseExit(Effect.scoped(Effect.provideService(exit.value, HttpServerRequest.HttpServerRequest, request)))
}

const body = (exit: Exit.Exit<HttpServerResponse.HttpServerResponse, unknown>) => {
  if (Exit.isFailure(exit)) throw new Error(Cause.pretty(exit.cause))
  const response = exit.value
  return { status: response.status, json: response.body._tag === "Uint8Array" ? JSON.parse(new TextDecoder().decode(response.body.body)) : undefined }
}

describe("Dispatch", () => {
  it("runs the endpoint's handler with its decoded path and query, and the route in the context", async () => {
    expect(body(await serve("GET", "/items/a%20b?tag=x&tag=y"))).toEqual({
      status: 200,
      json: { id: "a b", route: "/items/:id", tags: ["x", "y"] }
    })
    // One value for an array parameter is still an array (the platform's normalisation).
    expect(body(await serve("GET", "/items/7?tag=x")).json).toEqual({ id: "7", route: "/items/:id", tags: ["x"] })
  })

  it("prefers a literal segment to a parameter among overlapping routes, and chooses by method", async () => {
    expect(body(await serve("GET", "/items/summary")).json).toBe("summary")
    expect(body(await serve("DELETE", "/items/7")).status).toBe(204)
  })

  it("serves HEAD with the GET route", async () => {
    expect(body(await serve("HEAD", "/items/7")).status).toBe(200)
  })

  it("fails with RouteNotFound for what the table does not route", async () => {
    for (const [method, url] of [["GET", "/nothing"], ["POST", "/items/7"], ["GET", "/items/7/"]] as const) {
      const exit = await serve(method, url)
      expect(Exit.isFailure(exit) && Cause.failureOption(exit.cause).pipe((failure) =>
        failure._tag === "Some" && failure.value instanceof HttpServerError.RouteNotFound
      )).toBe(true)
    }
  })
})

/**
 * Path, header and query decoders run as values in the dispatching step (`Routes`); a schema
 * that needs an effect to decode (here asynchronous work) is decoded as an effect instead, and a
 * failure is the platform's decode error either way.
 */
const Loud = Schema.transformOrFail(Schema.String, Schema.String, {
  decode: (text) => Effect.async<string>((resume) => void setTimeout(() => resume(Effect.succeed(text.toUpperCase())), 0)),
  encode: (text) => Effect.succeed(text.toLowerCase())
})
const DecodingApi = HttpApi.make("decoding").add(
  HttpApiGroup.make("decoding")
    .add(HttpApiEndpoint.get("count", "/counts/:n").setPath(Schema.Struct({ n: Schema.NumberFromString })).addSuccess(Schema.Number))
    .add(HttpApiEndpoint.get("loud", "/loud/:word").setPath(Schema.Struct({ word: Loud })).addSuccess(Schema.String))
)
const DecodingLive = Group.group(DecodingApi, "decoding", (handlers) =>
  handlers
    .handle("count", ({ path }) => Effect.succeed(path.n * 2))
    .handle("loud", ({ path }) => Effect.succeed(path.word)))

const serveDecoding = async (url: string) => {
  const exit = await appOf<Effect.Effect<HttpServerResponse.HttpServerResponse, unknown, HttpServerRequest.HttpServerRequest>, never>(
    Routes.layer(DecodingApi, [DecodingLive])
  )
  if (Exit.isFailure(exit)) throw new Error(Cause.pretty(exit.cause))
  const request = HttpServerRequest.fromWeb(new Request(`http://localhost${url}`))
  return Effect.runPromiseExit(Effect.scoped(Effect.provideService(exit.value, HttpServerRequest.HttpServerRequest, request)))
}

describe("Dispatch's decoders", () => {
  it("decode the path as values, and fail with the platform's decode error", async () => {
    expect(body(await serveDecoding("/counts/21")).json).toBe(42)
    const refused = await serveDecoding("/counts/many")
    expect(Exit.isFailure(refused) && Cause.failureOption(refused.cause).pipe((failure) =>
      failure._tag === "Some" && (failure.value as { _tag?: string })._tag === "HttpApiDecodeError"
    )).toBe(true)
  })

  it("decode a schema that needs an effect (asynchronous work) as an effect", async () => {
    expect(body(await serveDecoding("/loud/quiet")).json).toBe("QUIET")
  })
})

/**
 * A request's context its host made for it alone (`RequestFiber.ownContext`, as `NodeServing`
 * does) gets the route's services beneath its base and the route in place: the handler runs on
 * the same context, with the same precedence (the host's entries over the routes') as the new
 * context any other request gets.
 */
class Shade extends Context.Tag("test/Shade")<Shade, string>() {}
class Deep extends Context.Tag("test/Deep")<Deep, string>() {}
const ContextApi = HttpApi.make("context").add(
  HttpApiGroup.make("context").add(HttpApiEndpoint.get("seen", "/seen").addSuccess(Schema.String))
)
let seenMap: ReadonlyMap<string, unknown> | undefined
const ContextLive = Group.group(ContextApi, "context", (handlers) =>
  handlers.handle("seen", () =>
    Effect.withFiberRuntime<string, never, Shade | Deep | HttpRouter.RouteContext>((fiber) => {
      seenMap = fiber.currentContext.unsafeMap
      return Effect.map(Effect.all([Shade, Deep, HttpRouter.RouteContext]), ([shade, deep, route]) => `${shade} ${deep} ${route.route.path}`)
    })))

const serveOn = async (owned: boolean) => {
  const exit = await appOf<Effect.Effect<HttpServerResponse.HttpServerResponse, unknown, HttpServerRequest.HttpServerRequest>, never>(
    Routes.layer(ContextApi, [ContextLive]).pipe(Layer.provide(Layer.mergeAll(Layer.succeed(Shade, "route's"), Layer.succeed(Deep, "deep"))))
  )
  if (Exit.isFailure(exit)) throw new Error(Cause.pretty(exit.cause))
  const request = HttpServerRequest.fromWeb(new Request("http://localhost/seen"))
  const base: ReadonlyMap<string, unknown> = new Map([[Shade.key, "host's"]])
  const context = owned
    ? RequestFiber.ownContext(base, request)
    : Context.unsafeMake(new Map<string, unknown>([...base, [HttpServerRequest.HttpServerRequest.key, request]]))
  const runtime = Runtime.make({ context, runtimeFlags: Runtime.defaultRuntime.runtimeFlags, fiberRefs: Runtime.defaultRuntime.fiberRefs })
  const served = await Runtime.runPromiseExit(runtime)(exit.value as Effect.Effect<HttpServerResponse.HttpServerResponse, unknown>)
  return { served: body(served).json, inPlace: seenMap === context.unsafeMap, base }
}

describe("Dispatch's request context", () => {
  it("gets the routes' services beneath a context its host made for the request alone, in place", async () => {
    const { base, inPlace, served } = await serveOn(true)
    expect(served).toBe("host's deep /seen")
    expect(inPlace).toBe(true)
    // The host's base is shared by every request: never written.
    expect([...base]).toEqual([[Shade.key, "host's"]])
  })

  it("makes any other request a context of its own, with the same precedence", async () => {
    const { inPlace, served } = await serveOn(false)
    expect(served).toBe("host's deep /seen")
    expect(inPlace).toBe(false)
  })
})

/**
 * A route runs interruptibly unless it is declared uninterruptible, whatever the fiber that serves
 * it: on a fiber that already runs so (`NodeServing`'s) without a region of other flags.
 */
const FlagsApi = HttpApi.make("flags").add(
  HttpApiGroup.make("flags")
    .add(HttpApiEndpoint.get("ordinary", "/ordinary").addSuccess(Schema.Boolean))
    .add(HttpApiEndpoint.get("guarded", "/guarded").addSuccess(Schema.Boolean))
)
const FlagsLive = Group.group(FlagsApi, "flags", (handlers) =>
  handlers
    .handle("ordinary", () => Effect.checkInterruptible((interruptible) => Effect.succeed(interruptible)))
    .handle("guarded", () => Effect.checkInterruptible((interruptible) => Effect.succeed(interruptible)), { uninterruptible: true }))

const interruptibleOn = async (path: string, fiberInterruptible: boolean) => {
  const exit = await appOf<Effect.Effect<HttpServerResponse.HttpServerResponse, unknown, HttpServerRequest.HttpServerRequest>, never>(
    Routes.layer(FlagsApi, [FlagsLive])
  )
  if (Exit.isFailure(exit)) throw new Error(Cause.pretty(exit.cause))
  const request = HttpServerRequest.fromWeb(new Request(`http://localhost${path}`))
  const flags = Runtime.defaultRuntime.runtimeFlags
  const runtime = Runtime.make({
    context: RequestFiber.ownContext(new Map(), request),
    runtimeFlags: fiberInterruptible ? RuntimeFlags.enable(flags, RuntimeFlags.Interruption) : RuntimeFlags.disable(flags, RuntimeFlags.Interruption),
    fiberRefs: Runtime.defaultRuntime.fiberRefs
  })
  return body(await Runtime.runPromiseExit(runtime)(exit.value as Effect.Effect<HttpServerResponse.HttpServerResponse, unknown>)).json
}

describe("Dispatch's interruptibility", () => {
  it("runs a route interruptibly and an uninterruptible one uninterruptibly, on an interruptible fiber or not", async () => {
    for (const fiberInterruptible of [true, false]) {
      expect(await interruptibleOn("/ordinary", fiberInterruptible)).toBe(true)
      expect(await interruptibleOn("/guarded", fiberInterruptible)).toBe(false)
    }
  })
})
