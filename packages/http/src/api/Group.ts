/**
 * `HttpApiBuilder.group` with each endpoint's success encoded by the handler's own step instead
 * of the platform's: for an endpoint with one JSON success schema, the value is `Schema.encode`d
 * with that schema and answered as `JsonBody.unsafeJson` with the schema's status. The platform
 * encodes through a union of `transformOrFail`s to a response and one flat `JSON.stringify`
 * (see `JsonBody` for what that costs a long page); this gives the same status, headers and bytes. Failures
 * stay the platform's: an encode error is a `ParseError` raised inside the route, which the
 * platform turns into an `HttpApiDecodeError` as before (answered as an unexpected 500; nothing
 * of the value leaks). Endpoints this does not cover (several success schemas, no content,
 * non-JSON encodings) keep the platform's encoder, and handlers that return a response already
 * (`Encoded.ok`) are passed through.
 */
import { HttpApiBuilder, type HttpApiEndpoint, HttpApiSchema, HttpServerResponse } from "@effect/platform"
import { Chunk, Effect, ParseResult, Schema } from "effect"
import * as CompiledEncoder from "./CompiledEncoder.js"
import * as JsonBody from "./JsonBody.js"

type Encoder = (value: unknown) => Effect.Effect<HttpServerResponse.HttpServerResponse, ParseResult.ParseError>

/** The encoder of an endpoint's success, or `undefined` where the platform's must run. */
export const successEncoder = (endpoint: HttpApiEndpoint.HttpApiEndpoint.Any): Encoder | undefined => {
  const schemas = new Set<Schema.Schema.Any>()
  HttpApiSchema.deunionize(schemas, (endpoint as HttpApiEndpoint.HttpApiEndpoint.AnyWithProps).successSchema)
  if (schemas.size !== 1) return undefined
  const [schema] = schemas as unknown as [Schema.Schema<unknown, unknown>]
  if (HttpApiSchema.isVoid(schema.ast)) return undefined
  const encoding = HttpApiSchema.getEncoding(schema.ast)
  if (encoding.kind !== "Json") return undefined
  const status = HttpApiSchema.getStatusSuccessAST(schema.ast)
  const encode = CompiledEncoder.encoder(schema)
  return (value) =>
    Effect.flatMap(encode(value), (encoded) => {
      try {
        return Effect.succeed(JsonBody.unsafeJson(encoded, { status, contentType: encoding.contentType }))
      } catch (error) {
        // As the platform reports a value JSON cannot hold (a BigInt, a cycle): its response transformation failed.
        const issue = new ParseResult.Type(schema.ast, error, "Could not encode to JSON")
        return Effect.fail(new ParseResult.ParseError({ issue: new ParseResult.Transformation(schema.ast as never, encoded, "Transformation", issue) }))
      }
    })
}

interface Item {
  readonly endpoint: HttpApiEndpoint.HttpApiEndpoint.AnyWithProps
  readonly handler: (request: unknown) => Effect.Effect<unknown, unknown, unknown>
}
interface Built {
  readonly group: unknown
  readonly handlers: Chunk.Chunk<Item>
}

const encodingSuccess = (item: Item): Item => {
  const encoder = successEncoder(item.endpoint)
  if (encoder === undefined) return item
  const { handler } = item
  return {
    ...item,
    handler: (request) =>
      Effect.flatMap(handler(request), (value) =>
        HttpServerResponse.isServerResponse(value) ? Effect.succeed(value) : encoder(value))
  }
}

/** The handlers as built, each with its success encoder (same prototype: `HttpApiBuilder`'s `Handlers`). */
const withSuccessEncoders = (built: Built): Built =>
  Object.assign(Object.create(Object.getPrototypeOf(built)), {
    group: built.group,
    handlers: Chunk.map(built.handlers, encodingSuccess)
  })

/** `HttpApiBuilder.group`, every endpoint's success encoded as above. Same signature. */
export const group: typeof HttpApiBuilder.group = ((api: unknown, groupName: string, build: (handlers: unknown) => unknown) =>
  (HttpApiBuilder.group as (...args: Array<unknown>) => unknown)(api, groupName, (handlers: unknown) => {
    const result = build(handlers)
    return Effect.isEffect(result) ? Effect.map(result as Effect.Effect<Built>, withSuccessEncoders) : withSuccessEncoders(result as Built)
  })) as any
