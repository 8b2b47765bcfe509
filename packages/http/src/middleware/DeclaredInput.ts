/**
 * A request carries only the input its operation declares: a query parameter the operation does
 * not name (`?stauts__in=open`) is a 422 at `query.<name>` rather than a filter silently dropped,
 * and a body sent to an operation that takes none (`POST …/actions/viewed`) is a 422 at `body`.
 * Unknown body members are refused by the body schemas themselves (`api/StrictBodies.ts`). Each
 * route's parameter names are read once from its `urlParams` schema (the names a client sends:
 * the encoded side). Checked by the tenant middleware right after the permission (`Authentication.ts`):
 * an anonymous or unauthorized caller gets 401/403, as for every other invalid input.
 */
import { type HttpApi, HttpMethod, HttpRouter, HttpServerRequest } from "@effect/platform"
import { Errors } from "@costline/core"
import { Effect, Option, SchemaAST } from "effect"
import * as RouteTable from "../routing/RouteTable.js"
import { hasBody } from "./BodyLimits.js"

export const UNKNOWN_PARAMETER = "is not a parameter of this operation"
export const NO_BODY = "this operation takes no request body"

/** Every parameter name `ast` accepts; `undefined` when it accepts any name (an index signature). */
const namesOf = (ast: SchemaAST.AST): ReadonlySet<string> | undefined => {
  switch (ast._tag) {
    case "TypeLiteral":
      return ast.indexSignatures.length > 0 ? undefined : new Set(ast.propertySignatures.map(({ name }) => String(name)))
    case "Transformation":
    case "Refinement":
      return namesOf(ast.from)
    case "Suspend":
      return namesOf(ast.f())
    case "Union": {
      const names = new Set<string>()
      for (const member of ast.types) {
        const found = namesOf(member)
        if (found === undefined) return undefined
        for (const name of found) names.add(name)
      }
      return names
    }
    default:
      return new Set()
  }
}

/** The query names a route accepts: its `urlParams`, and a GET payload's (the platform reads that from the query). */
const parameterNames = (route: RouteTable.Route): ReadonlySet<string> | undefined => {
  const { endpoint } = route
  const schemas = [
    endpoint.urlParamsSchema,
    HttpMethod.hasBody(endpoint.method) ? Option.none() : endpoint.payloadSchema
  ].filter(Option.isSome)
  const names = new Set<string>()
  for (const schema of schemas) {
    const found = namesOf(SchemaAST.encodedAST(schema.value.ast))
    if (found === undefined) return undefined
    for (const name of found) names.add(name)
  }
  return names
}

const issue = (field: string, message: string) => new Errors.FieldIssue({ field, issue: "unexpected", message })

const refuse = (issues: ReadonlyArray<Errors.FieldIssue>) =>
  Effect.fail(
    new Errors.ValidationFailed({
      message: issues.length === 1
        ? `${issues[0]!.field}: ${issues[0]!.message}`
        : `${issues.length} fields are invalid: ${issues.map(({ field }) => field).join(", ")}`,
      details: issues
    })
  )

const keyOf = (method: string, path: string) => `${method} ${path}`

/** The check of a request's input against its route, and the same rule asked without running it. */
export interface Checks {
  /** Fails with ValidationFailed when the request carries input its route does not declare. */
  readonly check: Effect.Effect<void, Errors.ValidationFailed, HttpRouter.RouteContext | HttpServerRequest.HttpServerRequest>
  /** Whether `check` would pass for `request` served by `served`, with nothing to run. */
  readonly accepts: (served: HttpRouter.Route<unknown, unknown>, request: HttpServerRequest.HttpServerRequest) => boolean
}

export const makeChecks = (api: HttpApi.HttpApi.Any): Checks => {
  const routes = new Map(RouteTable.forApi(api).routes.map((route) => [keyOf(route.method, route.path), route]))
  // A route's names are read on its first request, not for every route at start.
  const namesByRoute = new Map<RouteTable.Route, ReadonlySet<string> | undefined>()
  const namesOfRoute = (route: RouteTable.Route) => {
    if (!namesByRoute.has(route)) namesByRoute.set(route, parameterNames(route))
    return namesByRoute.get(route)
  }
  /** What the request carries that `served` does not declare. */
  const issuesOf = (served: HttpRouter.Route<unknown, unknown>, request: HttpServerRequest.HttpServerRequest) => {
    const route = routes.get(keyOf(served.method, served.path))
    if (route === undefined) return []
    const names = namesOfRoute(route)
    const queryAt = request.url.indexOf("?")
    const unknown = names === undefined || queryAt === -1
      ? []
      : [...new Set(new URLSearchParams(request.url.slice(queryAt + 1)).keys())].filter((name) => !names.has(name))
    const issues = unknown.map((name) => issue(`query.${name}`, UNKNOWN_PARAMETER))
    if (Option.isNone(route.endpoint.payloadSchema) && hasBody(request)) issues.push(issue("body", NO_BODY))
    return issues
  }
  return {
    check: Effect.gen(function*() {
      const { route } = yield* HttpRouter.RouteContext
      const issues = issuesOf(route, yield* HttpServerRequest.HttpServerRequest)
      if (issues.length > 0) return yield* refuse(issues)
    }),
    accepts: (served, request) => issuesOf(served, request).length === 0
  }
}

/** `makeChecks(api).check`. */
export const make = (api: HttpApi.HttpApi.Any) => makeChecks(api).check
