/**
 * costline's routes (`Group.group` + `Routes.layer` + `Dispatch.httpApp`) against the platform's
 * (`HttpApiBuilder.group` + `HttpApiBuilder.httpApp`): one sample API, implemented by the same
 * build function, exercising every feature the routes compile (path, query, header and payload
 * decoding and their failures, payloads by content type and from the query, middlewares with and
 * without `provides`, optional, in the platform's order, the group's services, `uninterruptible`,
 * `handleRaw`, a handler answering a response, the success encoders and their failures) answers
 * byte for byte as the platform does. Errors are encoded with the platform's own API error
 * encoding (`HttpApiBuilder.buildMiddleware`) on both sides, so a failure is compared as bytes too.
 */
import {
  HttpApi,
  HttpApiBuilder,
  HttpApiEndpoint,
  type HttpApiError,
  HttpApiGroup,
  HttpApiMiddleware,
  HttpApiSchema,
  HttpApp,
  HttpServer,
  HttpServerRequest,
  HttpServerResponse
} from "@effect/platform"
import { Context, DateTime, Effect, Layer, Option, Schema } from "effect"
import { describe, expect, expectTypeOf, it } from "vitest"
import * as Group from "../../src/api/Group.js"
import * as Dispatch from "../../src/routing/Dispatch.js"
import * as Routes from "../../src/routing/Routes.js"

const Record = Schema.Struct({
  id: Schema.String,
  at: Schema.DateTimeUtc,
  count: Schema.Int,
  details: Schema.Unknown,
  note: Schema.NullOr(Schema.String)
}).annotations({ identifier: "Record" })
const Created = Schema.Struct({ id: Schema.String }).pipe(HttpApiSchema.withEncoding({ kind: "Json", contentType: "application/vnd.test+json" }))

class User extends Context.Tag("test/User")<User, string>() {}
class Visitor extends Context.Tag("test/Visitor")<Visitor, string>() {}
class Greeting extends Context.Tag("test/Greeting")<Greeting, string>() {}
class Unauthorized extends Schema.TaggedError<Unauthorized>()("Unauthorized", {}, HttpApiSchema.annotations({ status: 401 })) {}
/** A middleware that provides: the user named by `x-user`, else 401. */
class Authenticate extends HttpApiMiddleware.Tag<Authenticate>()("test/Authenticate", { provides: User, failure: Unauthorized }) {}
/** A middleware that provides nothing. */
class Trace extends HttpApiMiddleware.Tag<Trace>()("test/Trace") {}
/** An optional middleware: the visitor named by `x-visitor`; its failure is ignored. */
class Track extends HttpApiMiddleware.Tag<Track>()("test/Track", { optional: true, provides: Visitor, failure: Unauthorized }) {}

const Numbered = Schema.Struct({ id: Schema.NumberFromString })
const RecordsGroup = HttpApiGroup.make("records")
    .add(HttpApiEndpoint.get("record", "/record").setUrlParams(Schema.Struct({ kind: Schema.String })).addSuccess(Record))
    .add(HttpApiEndpoint.post("create", "/record").addSuccess(Created, { status: 201 }))
    .add(HttpApiEndpoint.get("text", "/text").addSuccess(Schema.String.pipe(HttpApiSchema.withEncoding({ kind: "Text" }))))
    .add(
      HttpApiEndpoint.get("either", "/either").setUrlParams(Schema.Struct({ kind: Schema.String })).addSuccess(Record)
        .addSuccess(Created, { status: 202 })
    )
    .add(HttpApiEndpoint.del("remove", "/record"))
  .add(HttpApiEndpoint.get("raw", "/raw"))
const DecodingGroup = HttpApiGroup.make("decoding")
    .add(
      HttpApiEndpoint.get("item", "/items/:id").setPath(Numbered)
        .setUrlParams(Schema.Struct({ tag: Schema.optional(Schema.Array(Schema.String)), limit: Schema.optional(Schema.NumberFromString) }))
        .setHeaders(Schema.Struct({ "x-count": Schema.NumberFromString }))
        .addSuccess(Schema.Struct({ id: Schema.Number, tag: Schema.Array(Schema.String), limit: Schema.Number, count: Schema.Number }))
    )
    .add(
      HttpApiEndpoint.post("make", "/items").setPayload(Schema.Struct({ name: Schema.String, size: Schema.Int }))
        .addSuccess(Schema.Struct({ name: Schema.String, size: Schema.Int }))
    )
    .add(HttpApiEndpoint.get("search", "/search").setPayload(Schema.Struct({ q: Schema.String })).addSuccess(Schema.String))
    .add(HttpApiEndpoint.post("note", "/notes").setPayload(Schema.String).addSuccess(Schema.String))
  .add(HttpApiEndpoint.post("rawNote", "/raw-notes").setPayload(Schema.Struct({ never: Schema.Number })).addSuccess(Schema.String))
const GuardedGroup = HttpApiGroup.make("guarded")
    .add(HttpApiEndpoint.get("whoami", "/whoami").middleware(Track).addSuccess(Schema.Array(Schema.String)))
    .add(HttpApiEndpoint.get("interruptible", "/interruptible").addSuccess(Schema.Boolean))
    .add(HttpApiEndpoint.get("uninterruptible", "/uninterruptible").addSuccess(Schema.Boolean))
  .middleware(Trace)
  .middleware(Authenticate)
const Api = HttpApi.make("group").add(RecordsGroup).add(DecodingGroup).add(GuardedGroup)

const at = DateTime.unsafeMake("2026-11-26T05:00:00.123Z")
const records: Record<string, unknown> = {
  // Extra properties are dropped and fields come in schema order, as `Schema.encode` gives them.
  plain: { note: "ü – \u{1F600}", extra: "not declared", count: 3, id: "r1", at, details: { nested: [1, "two", null] } },
  misfit: { id: "r2", at, count: 1.5, details: null, note: null },
  unserialisable: { id: "r3", at, count: 1, details: { big: 1n }, note: null }
}

/** The order the middlewares ran in, for the request being answered. */
let ran: Array<string> = []

type Handlers<G extends HttpApiGroup.HttpApiGroup.Any> = HttpApiBuilder.Handlers.FromGroup<HttpApiError.HttpApiDecodeError, never, G>

// One implementation, handed to both builders.
const recordsOf = (handlers: Handlers<typeof RecordsGroup>) =>
  handlers
    .handle("record", ({ urlParams }) => Effect.succeed(records[urlParams.kind] as typeof Record.Type))
    .handle("create", () => Effect.succeed({ id: "c1" }))
    .handle("text", () => Effect.succeed("some text"))
    .handle("either", ({ urlParams }) =>
      Effect.succeed(
        urlParams.kind === "created" ? { id: "c2" } : urlParams.kind === "neither" ? { no: "id" } as never : records[urlParams.kind] as typeof Record.Type
      ))
    .handle("remove", () => Effect.void)
    // A response is answered as it is.
    .handle("raw", () => Effect.succeed(HttpServerResponse.text("as is", { status: 203, headers: { "x-raw": "1" } })))

const decodingOf = (handlers: Handlers<typeof DecodingGroup>) =>
  Effect.map(Greeting, (greeting) =>
    handlers
      .handle("item", ({ headers, path, urlParams }) =>
        Effect.succeed({ id: path.id, tag: urlParams.tag ?? [], limit: urlParams.limit ?? 0, count: headers["x-count"] }))
      .handle("make", ({ payload }) => Effect.succeed(payload))
      .handle("search", ({ payload }) => Effect.succeed(`${greeting} ${payload.q}`))
      .handle("note", ({ payload }) => Effect.succeed(`note: ${payload}`))
      .handleRaw("rawNote", ({ request }) => Effect.map(Effect.orDie(request.text), (text) => HttpServerResponse.text(`raw: ${text}`))))

const guardedOf = (handlers: Handlers<typeof GuardedGroup>) =>
  handlers
    .handle("whoami", () =>
      Effect.gen(function*() {
        // A service of the group's context, one provided by a middleware, one by an optional one.
        const visitor = yield* Effect.serviceOption(Visitor)
        return [yield* Greeting, yield* User, Option.getOrElse(visitor, () => "no visitor"), ...ran]
      }))
    .handle("interruptible", () => Effect.checkInterruptible((interruptible) => Effect.succeed(interruptible)))
    .handle("uninterruptible", () => Effect.checkInterruptible((interruptible) => Effect.succeed(interruptible)), { uninterruptible: true })

const header = (name: string) => Effect.map(HttpServerRequest.HttpServerRequest, (request) => request.headers[name])

const MiddlewaresLive = Layer.mergeAll(
  Layer.succeed(Authenticate, Effect.flatMap(header("x-user"), (user) => {
    ran.push("Authenticate")
    return user === undefined ? Effect.fail(new Unauthorized()) : Effect.succeed(user)
  })),
  Layer.succeed(Trace, Effect.sync(() => void ran.push("Trace"))),
  Layer.succeed(Track, Effect.flatMap(header("x-visitor"), (visitor) => {
    ran.push("Track")
    return visitor === undefined ? Effect.fail(new Unauthorized()) : Effect.succeed(visitor)
  })),
  Layer.succeed(Greeting, "hello")
)

const platform = () =>
  HttpApp.toWebHandlerLayerWith(
    Layer.mergeAll(
      HttpApiBuilder.api(Api).pipe(
        Layer.provide([
          HttpApiBuilder.group(Api, "records", recordsOf),
          HttpApiBuilder.group(Api, "decoding", decodingOf),
          HttpApiBuilder.group(Api, "guarded", guardedOf)
        ]),
        Layer.provide(MiddlewaresLive)
      ),
      HttpApiBuilder.Router.Live,
      HttpApiBuilder.Middleware.layer,
      HttpServer.layerContext
    ),
    { toHandler: (runtime) => Effect.provide(HttpApiBuilder.httpApp, runtime) }
  )

const costline = () =>
  HttpApp.toWebHandlerLayerWith(
    Layer.mergeAll(
      Routes.layer(Api, [
        Group.group(Api, "records", recordsOf),
        Group.group(Api, "decoding", decodingOf),
        Group.group(Api, "guarded", guardedOf)
      ]).pipe(Layer.provide(MiddlewaresLive)),
      HttpApiBuilder.Middleware.layer,
      HttpServer.layerContext
    ),
    {
      // The platform's error encoding of the API around the dispatch, as `HttpApiBuilder.httpApp` has it.
      toHandler: (runtime) =>
        Effect.provide(Effect.zipWith(Dispatch.httpApp, HttpApiBuilder.buildMiddleware(Api), (app, encodeErrors) => encodeErrors(app as never)), runtime)
    }
  )

type Handler = ReturnType<typeof platform>

const answer = async (handler: Handler, method: string, path: string, init: { headers?: Record<string, string>; body?: string } = {}) => {
  ran = []
  const response = await handler.handler(new Request(`http://localhost${path}`, { method, ...init }))
  return { status: response.status, headers: Object.fromEntries(response.headers), body: Buffer.from(await response.arrayBuffer()).toString("utf8") }
}

const json = { "content-type": "application/json" }
const user = { "x-user": "ada" }
const requests: ReadonlyArray<readonly [string, string, { headers?: Record<string, string>; body?: string }?]> = [
  ["GET", "/record?kind=plain"],
  ["POST", "/record"],
  ["GET", "/text"],
  ["GET", "/either?kind=created"],
  ["GET", "/either?kind=plain"],
  // The platform's encoder failing: a value that does not fit any success schema.
  ["GET", "/either?kind=neither"],
  ["DELETE", "/record"],
  ["GET", "/raw"],
  // Path, query (one value of an array parameter is an array), headers.
  ["GET", "/items/7?tag=a&tag=b&limit=3", { headers: { "x-count": "2" } }],
  ["GET", "/items/7?tag=a", { headers: { "x-count": "2" } }],
  ["GET", "/items/seven?tag=a", { headers: { "x-count": "2" } }],
  ["GET", "/items/7?limit=many", { headers: { "x-count": "2" } }],
  ["GET", "/items/7", { headers: { "x-count": "two" } }],
  ["GET", "/items/7"],
  // Payloads: JSON, its failures, from the query for GET, text, form, not decoded for handleRaw.
  ["POST", "/items", { headers: json, body: JSON.stringify({ name: "n", size: 2 }) }],
  ["POST", "/items", { headers: json, body: JSON.stringify({ name: "n", size: 2.5 }) }],
  ["POST", "/items", { headers: json, body: JSON.stringify({ name: 1 }) }],
  ["POST", "/items", { headers: { "content-type": "application/x-www-form-urlencoded" }, body: "name=n&size=2" }],
  ["GET", "/search?q=word"],
  ["GET", "/search"],
  ["POST", "/notes", { headers: { "content-type": "text/plain" }, body: "a note" }],
  ["POST", "/notes", { headers: json, body: "{\"not\":\"text\"}" }],
  ["POST", "/raw-notes", { headers: json, body: "{\"any\":\"thing\"}" }],
  // Middlewares: provided services, the optional one with and without its header, a refusal.
  ["GET", "/whoami", { headers: user }],
  ["GET", "/whoami", { headers: { ...user, "x-visitor": "bob" } }],
  ["GET", "/whoami"],
  ["GET", "/interruptible", { headers: user }],
  ["GET", "/uninterruptible", { headers: user }],
  ["GET", "/nowhere"]
]

describe("costline's routes", () => {
  it("answer every request byte for byte as HttpApiBuilder.group and httpApp do", async () => {
    const [reference, compiled] = [platform(), costline()]
    try {
      for (const [method, path, init] of requests) {
        const label = `${method} ${path} ${JSON.stringify(init ?? {})}`
        expect(await answer(compiled, method, path, init), label).toStrictEqual(await answer(reference, method, path, init))
      }
      // The cases compared are the ones meant.
      const status = async (method: string, path: string, init?: { headers?: Record<string, string>; body?: string }) =>
        (await answer(compiled, method, path, init)).status
      // (An encoding failure is the platform's HttpApiDecodeError, 400 here; costline's pipeline answers it 500.)
      expect(await status("GET", "/either?kind=neither")).toBe(400)
      expect(await status("GET", "/either?kind=created")).toBe(202)
      expect(await status("GET", "/items/seven", { headers: { "x-count": "2" } })).toBe(400)
      expect(await status("POST", "/items", { headers: json, body: "{}" })).toBe(400)
      expect(await status("GET", "/raw")).toBe(203)
      expect(await status("GET", "/whoami")).toBe(401)
      expect(JSON.parse((await answer(compiled, "GET", "/whoami", { headers: { ...user, "x-visitor": "bob" } })).body))
        .toEqual(["hello", "ada", "bob", "Track", "Authenticate", "Trace"])
      expect((await answer(compiled, "GET", "/interruptible", { headers: user })).body).toBe("true")
      expect((await answer(compiled, "GET", "/uninterruptible", { headers: user })).body).toBe("false")
    } finally {
      await Promise.all([reference.dispose(), compiled.dispose()])
    }
  })

  it("answer a success that does not fit, or that JSON cannot hold, with the platform's error and issues", async () => {
    const [reference, compiled] = [platform(), costline()]
    // The message names the schema encoded with (costline encodes with the success schema itself, the
    // platform with its union of response transformations): the rest is the same, and costline's
    // pipeline never shows it (it answers an encoding failure as an unexpected 500).
    const failure = async (handler: Handler, path: string) => {
      const { body, headers, status } = await answer(handler, "GET", path)
      const { _tag, issues } = JSON.parse(body)
      return { status, contentType: headers["content-type"], _tag, issues }
    }
    try {
      for (const path of ["/record?kind=misfit", "/record?kind=unserialisable"]) {
        expect(await failure(compiled, path), path).toStrictEqual(await failure(reference, path))
        expect((await failure(compiled, path))._tag).toBe("HttpApiDecodeError")
      }
    } finally {
      await Promise.all([reference.dispose(), compiled.dispose()])
    }
  })

  it("refuse at build what they do not compile: API-level middlewares", async () => {
    class Marker extends HttpApiMiddleware.Tag<Marker>()("Marker") {}
    const WithMiddleware = HttpApi.make("marked").add(HttpApiGroup.make("one").add(HttpApiEndpoint.get("get", "/one"))).middleware(Marker)
    const exit = await Effect.runPromiseExit(Layer.build(
      Routes.layer(WithMiddleware, [Group.group(WithMiddleware, "one", (handlers) => handlers.handle("get", () => Effect.void))])
    ).pipe(Effect.scoped))
    expect(String(exit._tag === "Failure" && exit.cause)).toContain("API-level HttpApi middlewares")
  })

  it("refuse at build what they do not compile: multipart payloads", async () => {
    const Upload = HttpApi.make("upload").add(
      HttpApiGroup.make("files").add(HttpApiEndpoint.post("upload", "/files").setPayload(HttpApiSchema.Multipart(Schema.Struct({}))))
    )
    const exit = await Effect.runPromiseExit(Layer.build(
      Routes.layer(Upload, [Group.group(Upload, "files", (handlers) => handlers.handle("upload", () => Effect.void))])
    ).pipe(Effect.scoped))
    expect(String(exit._tag === "Failure" && exit.cause)).toContain("multipart payloads (POST /files)")
  })

  it("require every group of the API, and every endpoint of a group, at compile time", () => {
    const records = Group.group(Api, "records", recordsOf)
    const decoding = Group.group(Api, "decoding", decodingOf)
    // @ts-expect-error the "guarded" group is not implemented
    const incomplete = Routes.layer(Api, [records, decoding])
    // @ts-expect-error the "uninterruptible" endpoint of "guarded" is not handled
    const partial = Group.group(Api, "guarded", (handlers) => handlers.handle("whoami", () => Effect.succeed([])).handle("interruptible", () => Effect.succeed(true)))
    expect([incomplete, partial]).toHaveLength(2)
    // Complete: the layer needs what the groups' builds, handlers and middlewares need.
    const complete = Routes.layer(Api, [records, decoding, Group.group(Api, "guarded", guardedOf)])
    expectTypeOf(complete).toEqualTypeOf<Layer.Layer<Routes.Routes, never, Greeting | Authenticate | Trace | Track>>()
  })
})

describe("Group.successEncoder", () => {
  it("encodes the success of an endpoint with one JSON success schema, and only that", () => {
    const endpoints = Api.groups.records.endpoints
    expect(Group.successEncoder(endpoints.record)).toBeDefined()
    expect(Group.successEncoder(endpoints.create)).toBeDefined()
    // Left to the platform's encoder: several success schemas, no content, a non-JSON encoding.
    expect(Group.successEncoder(endpoints.either)).toBeUndefined()
    expect(Group.successEncoder(endpoints.remove)).toBeUndefined()
    expect(Group.successEncoder(endpoints.text)).toBeUndefined()
  })

  it("answers with the schema's status and content type, the body as Buffer.from's bytes", async () => {
    const response = await Effect.runPromise(Group.successEncoder(Api.groups.records.endpoints.create)!({ id: "c1" }))
    expect(response.status).toBe(201)
    expect(response.body._tag).toBe("Uint8Array")
    if (response.body._tag !== "Uint8Array") return
    expect(Buffer.isBuffer(response.body.body)).toBe(true)
    expect(response.body.contentType).toBe("application/vnd.test+json")
    expect(Buffer.from(response.body.body).toString()).toBe(JSON.stringify({ id: "c1" }))
  })
})
