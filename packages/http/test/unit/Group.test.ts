/**
 * `Group.group` encodes each endpoint's success itself (its schema, `JsonBody`) where that is
 * the platform's plain case, and leaves every other case to the platform: an API served through
 * it answers exactly as through `HttpApiBuilder.group` (status, headers, bytes), including a value
 * that does not fit its schema and one JSON cannot hold (the same error, with the same issues).
 */
import { HttpApi, HttpApiBuilder, HttpApiEndpoint, HttpApiGroup, HttpApiSchema, HttpServer } from "@effect/platform"
import { DateTime, Effect, Layer, Schema } from "effect"
import { describe, expect, it } from "vitest"
import * as Group from "../../src/api/Group.js"

const Record = Schema.Struct({
  id: Schema.String,
  at: Schema.DateTimeUtc,
  count: Schema.Int,
  details: Schema.Unknown,
  note: Schema.NullOr(Schema.String)
}).annotations({ identifier: "Record" })
const Created = Schema.Struct({ id: Schema.String }).pipe(HttpApiSchema.withEncoding({ kind: "Json", contentType: "application/vnd.test+json" }))

const Api = HttpApi.make("group").add(
  HttpApiGroup.make("records")
    .add(HttpApiEndpoint.get("record", "/record").setUrlParams(Schema.Struct({ kind: Schema.String })).addSuccess(Record))
    .add(HttpApiEndpoint.post("create", "/record").addSuccess(Created, { status: 201 }))
    .add(HttpApiEndpoint.get("text", "/text").addSuccess(Schema.String.pipe(HttpApiSchema.withEncoding({ kind: "Text" }))))
    .add(HttpApiEndpoint.get("either", "/either").addSuccess(Record).addSuccess(Created, { status: 202 }))
    .add(HttpApiEndpoint.del("remove", "/record"))
)

const at = DateTime.unsafeMake("2026-11-26T05:00:00.123Z")
const records: Record<string, unknown> = {
  // Extra properties are dropped and fields come in schema order, as `Schema.encode` gives them.
  plain: { note: "ü – \u{1F600}", extra: "not declared", count: 3, id: "r1", at, details: { nested: [1, "two", null] } },
  misfit: { id: "r2", at, count: 1.5, details: null, note: null },
  unserialisable: { id: "r3", at, count: 1, details: { big: 1n }, note: null }
}

const build = (group: typeof HttpApiBuilder.group) =>
  group(Api, "records", (handlers) =>
    handlers
      .handle("record", ({ urlParams }) => Effect.succeed(records[urlParams.kind] as typeof Record.Type))
      .handle("create", () => Effect.succeed({ id: "c1" }))
      .handle("text", () => Effect.succeed("some text"))
      .handle("either", () => Effect.succeed({ id: "c2" }))
      .handle("remove", () => Effect.void))

const handlerOf = (group: typeof HttpApiBuilder.group) =>
  HttpApiBuilder.toWebHandler(
    HttpApiBuilder.api(Api).pipe(Layer.provide(build(group))).pipe(Layer.merge(HttpServer.layerContext))
  )

/**
 * An answer, to compare: the bytes of a success; of a failure, the error and its issues (the
 * platform's message names the schema it encoded with, which differs and which costline never
 * shows: a failure to encode is answered as an unexpected 500).
 */
const answer = async (handler: ReturnType<typeof handlerOf>, method: string, path: string) => {
  const response = await handler.handler(new Request(`http://localhost${path}`, { method }))
  const bytes = Buffer.from(await response.arrayBuffer())
  if (response.status < 400) {
    return { status: response.status, headers: Object.fromEntries(response.headers), body: bytes.toString("hex") }
  }
  const { _tag, issues } = JSON.parse(bytes.toString("utf8"))
  return { status: response.status, contentType: response.headers.get("content-type"), _tag, issues }
}

const requests = [
  ["GET", "/record?kind=plain"],
  ["GET", "/record?kind=misfit"],
  ["GET", "/record?kind=unserialisable"],
  ["POST", "/record"],
  ["GET", "/text"],
  ["GET", "/either"],
  ["DELETE", "/record"]
] as const

describe("Group.group", () => {
  it("answers every request as HttpApiBuilder.group does", async () => {
    const platform = handlerOf(HttpApiBuilder.group)
    const costline = handlerOf(Group.group)
    try {
      for (const [method, path] of requests) {
        expect(await answer(costline, method, path), `${method} ${path}`).toStrictEqual(await answer(platform, method, path))
      }
      // The cases compared are the ones meant: an answer, a 201, a 204 and two failures.
      expect((await answer(costline, "GET", "/record?kind=plain")).status).toBe(200)
      expect((await answer(costline, "POST", "/record")).status).toBe(201)
      expect((await answer(costline, "DELETE", "/record")).status).toBe(204)
      expect((await answer(costline, "GET", "/record?kind=misfit")).status).not.toBe(200)
      expect((await answer(costline, "GET", "/record?kind=unserialisable")).status).not.toBe(200)
    } finally {
      await Promise.all([platform.dispose(), costline.dispose()])
    }
  })

  it("encodes the success of an endpoint with one JSON success schema, and only that", () => {
    const endpoints = Api.groups.records.endpoints
    expect(Group.successEncoder(endpoints.record)).toBeDefined()
    expect(Group.successEncoder(endpoints.create)).toBeDefined()
    // Left to the platform: several success schemas, no content, a non-JSON encoding.
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
