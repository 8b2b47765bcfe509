/**
 * A group's handlers, declared as with `HttpApiBuilder.group` (same call: the API, the group's
 * name, a `build` that receives the platform's `Handlers` and calls `handle` per endpoint) but
 * not built as a platform layer: `Group.group` only records the build, and `routing/Routes.ts`
 * runs every group's build in one layer and compiles each endpoint's route itself (see there).
 * The type-level guarantees are the platform's: `build` must handle every endpoint of the group
 * (`Handlers.ValidateReturn`), and its requirements (the handlers' services, the group's
 * middlewares) are the group's, which `Routes.layer` requires.
 *
 * Each endpoint's success is encoded by `successEncoder`: for one JSON success schema the value
 * is encoded with it (by `CompiledEncoder`, which equals `Schema.encode`) and answered as `JsonBody.unsafeJson` (the platform encodes through
 * a union of `transformOrFail`s to a response and one flat `JSON.stringify`; see `JsonBody` for
 * what that costs a long page); every other endpoint gets `platformSuccessEncoder`, the
 * platform's own encoder rebuilt here (its `makeSuccessSchema` is internal). Both give the
 * platform's status, headers and bytes, and fail as it does (a `ParseError`, which the route
 * turns into an `HttpApiDecodeError`).
 */
import {
  type HttpApi,
  type HttpApiBuilder,
  type HttpApiEndpoint,
  type HttpApiGroup,
  HttpApiSchema,
  HttpServerResponse
} from "@effect/platform"
import { Effect, identity, ParseResult, Schema, type Scope, type SchemaAST, type Types } from "effect"
import { pipeArguments } from "effect/Pipeable"
import * as CompiledEncoder from "./CompiledEncoder.js"
import * as JsonBody from "./JsonBody.js"

export type Encoder = (value: unknown) => Effect.Effect<HttpServerResponse.HttpServerResponse, ParseResult.ParseError>

/** The encoder of an endpoint's success with one JSON schema, or `undefined` where `platformSuccessEncoder` must run. */
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

// The platform's success encoder (`HttpApiBuilder`'s internal `makeSuccessSchema`), line for line:
// each success schema becomes a transformation from a response, the union of them is encoded.
const responseSchema = Schema.declare(HttpServerResponse.isServerResponse)

const schemaToResponse = (
  data: unknown,
  _: SchemaAST.ParseOptions,
  ast: SchemaAST.Transformation
): Effect.Effect<HttpServerResponse.HttpServerResponse, ParseResult.ParseIssue> => {
  const status = HttpApiSchema.getStatusSuccessAST(ast.to)
  if (HttpApiSchema.isVoid(ast.to)) return HttpServerResponse.empty({ status }) as never
  const encoding = HttpApiSchema.getEncoding(ast.to)
  switch (encoding.kind) {
    case "Json":
      return Effect.mapError(
        HttpServerResponse.json(data, { status, contentType: encoding.contentType }),
        (error) => new ParseResult.Type(ast, error, "Could not encode to JSON")
      )
    case "Text":
      return ParseResult.succeed(HttpServerResponse.text(data as string, { status, contentType: encoding.contentType }))
    case "Uint8Array":
      return ParseResult.succeed(HttpServerResponse.uint8Array(data as Uint8Array, { status, contentType: encoding.contentType }))
    case "UrlParams":
      return ParseResult.succeed(HttpServerResponse.urlParams(data as never, { status, contentType: encoding.contentType }))
  }
}

/** The platform's encoder of an endpoint's successes, whatever their number and encodings. */
export const platformSuccessEncoder = (endpoint: HttpApiEndpoint.HttpApiEndpoint.Any): Encoder => {
  const schemas = new Set<Schema.Schema.Any>()
  HttpApiSchema.deunionize(schemas, (endpoint as HttpApiEndpoint.HttpApiEndpoint.AnyWithProps).successSchema)
  const union = Schema.Union(...Array.from(schemas, (schema) =>
    Schema.transformOrFail(responseSchema, schema as Schema.Schema<unknown, unknown>, {
      decode: (value, _, ast) => ParseResult.fail(new ParseResult.Forbidden(ast, value, "Encode only schema")),
      encode: schemaToResponse
    })))
  return Schema.encode(union as unknown as Schema.Schema<unknown, HttpServerResponse.HttpServerResponse>)
}

/** The endpoint's success encoder: costline's for one JSON schema, else the platform's. */
export const encoderOf = (endpoint: HttpApiEndpoint.HttpApiEndpoint.Any): Encoder =>
  successEncoder(endpoint) ?? platformSuccessEncoder(endpoint)

/** One `handle` / `handleRaw` call: what `Routes` compiles into a route. */
export interface Item {
  readonly endpoint: HttpApiEndpoint.HttpApiEndpoint.AnyWithProps
  readonly handler: (request: any) => Effect.Effect<unknown, unknown, unknown>
  /** `handleRaw`: the payload is not decoded (the handler reads the request). */
  readonly withFullRequest: boolean
  readonly uninterruptible: boolean
}

/** What a group's build returns: the group and its handled endpoints. */
export interface Built {
  readonly group: HttpApiGroup.HttpApiGroup.AnyWithProps
  readonly items: ReadonlyArray<Item>
}

// The platform's `Handlers` (its prototype is internal): the same two methods, same type.
const HandlersProto = {
  [Symbol.for("@effect/platform/HttpApiBuilder/Handlers")]: { _Endpoints: identity },
  pipe() {
    return pipeArguments(this, arguments)
  },
  handle(this: Built, name: string, handler: Item["handler"], options?: { readonly uninterruptible?: boolean | undefined }) {
    return makeHandlers(this.group, [...this.items, item(this.group, name, handler, false, options)])
  },
  handleRaw(this: Built, name: string, handler: Item["handler"], options?: { readonly uninterruptible?: boolean | undefined }) {
    return makeHandlers(this.group, [...this.items, item(this.group, name, handler, true, options)])
  }
}

const item = (
  group: HttpApiGroup.HttpApiGroup.AnyWithProps,
  name: string,
  handler: Item["handler"],
  withFullRequest: boolean,
  options: { readonly uninterruptible?: boolean | undefined } | undefined
): Item => ({ endpoint: group.endpoints[name]!, handler, withFullRequest, uninterruptible: options?.uninterruptible ?? false })

const makeHandlers = (group: HttpApiGroup.HttpApiGroup.AnyWithProps, items: ReadonlyArray<Item>): Built =>
  Object.assign(Object.create(HandlersProto), { group, items })

export const TypeId: unique symbol = Symbol.for("@costline/http/Group")

/**
 * A group's handlers, to be compiled by `Routes.layer`: the build needs `R` and may fail with
 * `E`. `ApiId` and `Name` say which group of which API it implements.
 */
export interface GroupLive<out ApiId extends string, out Name extends string, out E, out R> {
  readonly [TypeId]: { readonly _E: Types.Covariant<E>; readonly _R: Types.Covariant<R> }
  readonly apiId: ApiId
  readonly name: Name
  readonly build: Effect.Effect<Built, E, R>
}

export declare namespace GroupLive {
  export type Any = GroupLive<string, string, any, any>
  export type Error<G> = G extends GroupLive<infer _ApiId, infer _Name, infer E, infer _R> ? E : never
  export type Context<G> = G extends GroupLive<infer _ApiId, infer _Name, infer _E, infer R> ? R : never
  export type Name<G> = G extends GroupLive<infer _ApiId, infer Name, infer _E, infer _R> ? Name : never
}

/** `HttpApiBuilder.group`'s call, recorded for `Routes.layer` instead of built as a layer of its own. */
export const group = <
  ApiId extends string,
  Groups extends HttpApiGroup.HttpApiGroup.Any,
  ApiError,
  ApiR,
  const Name extends HttpApiGroup.HttpApiGroup.Name<Groups>,
  Return
>(
  api: HttpApi.HttpApi<ApiId, Groups, ApiError, ApiR>,
  groupName: Name,
  build: (
    handlers: HttpApiBuilder.Handlers.FromGroup<ApiError, ApiR, HttpApiGroup.HttpApiGroup.WithName<Groups, Name>>
  ) => HttpApiBuilder.Handlers.ValidateReturn<Return>
): GroupLive<
  ApiId,
  Name,
  HttpApiBuilder.Handlers.Error<Return>,
  Exclude<HttpApiBuilder.Handlers.Context<Return> | HttpApiGroup.HttpApiGroup.MiddlewareWithName<Groups, Name>, Scope.Scope>
> => ({
  [TypeId]: { _E: identity, _R: identity },
  apiId: api.identifier,
  name: groupName,
  build: Effect.suspend(() => {
    const group = (api as unknown as HttpApi.HttpApi.AnyWithProps).groups[groupName]!
    const result = build(makeHandlers(group, []) as never) as unknown
    return Effect.isEffect(result) ? result as Effect.Effect<Built> : Effect.succeed(result as Built)
  }) as Effect.Effect<Built, never, never>
})
