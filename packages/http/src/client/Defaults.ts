/**
 * The API definition as a client sends it: a query parameter or header the server fills in when
 * it is absent (`sort_order` defaults to `desc`, `max_results` to 50, ...) may be left out, and
 * so may `urlParams` or `headers` as a whole when nothing in them is required. The server keeps
 * the one home of each default; the client omits what the caller did not give.
 */
import type { HttpApi, HttpApiEndpoint, HttpApiGroup, HttpClientError, HttpClientResponse } from "@effect/platform"
import type { Effect, ParseResult, Types } from "effect"
import { Option, Schema, SchemaAST as AST } from "effect"

/**
 * The names of the parameters and headers that have a default somewhere in the API. Types only
 * (the definition's types do not say which members have one); a test checks it against the
 * schemas, so a new default that is missing here fails it.
 */
export const DEFAULTED = [
  "max_results",
  "sort_by",
  "sort_order",
  "scope",
  "limit",
  "offset",
  "members_max_results",
  "roles_max_results",
  "members_limit",
  "members_offset",
  "roles_limit",
  "roles_offset"
] as const
export type Defaulted = typeof DEFAULTED[number]

/** Whether a member of a struct's transformation has a default: it decodes an absent key to a value. */
const hasDefault = (member: AST.PropertySignatureTransformation) => Option.isSome(member.decode(Option.none()))

/** The members with a default in a struct schema's AST (none when it is not a struct). */
export const defaultedMembers = (ast: AST.AST): ReadonlyArray<PropertyKey> => {
  if (AST.isRefinement(ast)) return defaultedMembers(ast.from)
  if (AST.isTransformation(ast) && AST.isTypeLiteralTransformation(ast.transformation)) {
    return ast.transformation.propertySignatureTransformations.filter(hasDefault).map((member) => member.to)
  }
  return []
}

/** The same struct, with the members that have a default optional on its type side. */
const relax = (ast: AST.AST): AST.AST => {
  if (AST.isRefinement(ast)) return new AST.Refinement(relax(ast.from), ast.filter, ast.annotations)
  const defaulted = new Set(defaultedMembers(ast))
  if (defaulted.size === 0 || !AST.isTransformation(ast) || !AST.isTypeLiteral(ast.to)) return ast
  const to = new AST.TypeLiteral(
    ast.to.propertySignatures.map((member) =>
      defaulted.has(member.name)
        ? new AST.PropertySignature(member.name, member.type, true, member.isReadonly, member.annotations)
        : member
    ),
    ast.to.indexSignatures,
    ast.to.annotations
  )
  return new AST.Transformation(ast.from, to, ast.transformation, ast.annotations)
}

const relaxSchema = (schema: Schema.Schema.Any): Schema.Schema.Any => Schema.make(relax(schema.ast))

/** Every endpoint of `api` with relaxed query and header schemas (groups and endpoints keep their places). */
export const relaxApi = <A extends HttpApi.HttpApi.Any>(api: A): A => {
  const withProps = api as unknown as HttpApi.HttpApi.AnyWithProps
  let out = withProps
  for (const group of Object.values(withProps.groups)) {
    let relaxed = group
    for (const endpoint of Object.values(group.endpoints)) {
      let next = endpoint
      if (Option.isSome(endpoint.urlParamsSchema)) next = next.setUrlParams(relaxSchema(endpoint.urlParamsSchema.value) as any)
      if (Option.isSome(endpoint.headersSchema)) next = next.setHeaders(relaxSchema(endpoint.headersSchema.value) as any)
      relaxed = relaxed.add(next as any) as any
    }
    out = out.add(relaxed as any) as any
  }
  return out as unknown as A
}

/** Calls with `urlParams` or `headers` left out send none; the encoders need an object. */
export const fillEmpty = (request: unknown) => {
  const given = (request ?? {}) as Record<string, unknown>
  return { ...given, urlParams: given["urlParams"] ?? {}, headers: given["headers"] ?? {} }
}

// ---- types -----------------------------------------------------------------------------------

type Relaxed<P> = Types.Simplify<Omit<P, Defaulted> & Partial<Pick<P, Extract<keyof P, Defaulted>>>>

/** A member that may be left out when everything in it may be. */
type Part<K extends string, P> = [P] extends [never] ? {}
  : {} extends Relaxed<P> ? { readonly [_ in K]?: Relaxed<P> }
  : { readonly [_ in K]: Relaxed<P> }

type ClientRequest<Path, UrlParams, Payload, Headers> =
  & ([Path] extends [void] ? {} : { readonly path: Path })
  & Part<"urlParams", UrlParams>
  & Part<"headers", Headers>
  & ([Payload] extends [never] ? {} : { readonly payload: Payload })

type Method<Endpoint, GroupError, E> = [Endpoint] extends [
  HttpApiEndpoint.HttpApiEndpoint<
    infer _Name,
    infer _Method,
    infer _Path,
    infer _UrlParams,
    infer _Payload,
    infer _Headers,
    infer _Success,
    infer _Error,
    infer _R,
    infer _RE
  >
] ? <WithResponse extends boolean = false>(
    ...request: {} extends ClientRequest<_Path, _UrlParams, _Payload, _Headers>
      ? [request?: Types.Simplify<ClientRequest<_Path, _UrlParams, _Payload, _Headers> & { readonly withResponse?: WithResponse }>]
      : [request: Types.Simplify<ClientRequest<_Path, _UrlParams, _Payload, _Headers> & { readonly withResponse?: WithResponse }>]
  ) => Effect.Effect<
    WithResponse extends true ? [_Success, HttpClientResponse.HttpClientResponse] : _Success,
    _Error | GroupError | E | HttpClientError.HttpClientError | ParseResult.ParseError
  >
  : never

/** The client of `Api` whose calls may leave out what has a default; `E` is what every call may fail with. */
export type Client<Api extends HttpApi.HttpApi.Any, E> = Api extends HttpApi.HttpApi<infer _Id, infer Groups, infer ApiError, infer _R>
  ? {
    readonly [Group in Groups as HttpApiGroup.HttpApiGroup.Name<Group>]: Group extends HttpApiGroup.HttpApiGroup<
      infer _GroupId,
      infer Endpoints,
      infer GroupError,
      infer _GroupR,
      infer _TopLevel
    > ? { readonly [Endpoint in Endpoints as HttpApiEndpoint.HttpApiEndpoint.Name<Endpoint>]: Method<Endpoint, GroupError, ApiError | E> }
      : never
  }
  : never
