/**
 * Enforces the permission each endpoint declares (`api/Access.ts`) for the route being served.
 * Runs in the tenant middleware, right after authentication: a caller without the permission
 * gets 403 before anything about the request is validated or looked up. A refused write is
 * audited with `status: failure` (core `Authorization`), naming the record and what was asked.
 */
import { type HttpApi, HttpRouter, HttpServerRequest } from "@effect/platform"
import { Authorization, Permissions } from "@costline/core"
import type { Errors, Identity } from "@costline/core"
import { Context, Effect, Option, Predicate, Schema } from "effect"
import { type RouteAccess, Requires } from "../api/Access.js"
import { readJsonBody } from "../errors/DecodeFailure.js"
import * as RouteTable from "../routing/RouteTable.js"

/** An endpoint of the API with what it declares. */
export interface DeclaredRoute {
  readonly method: string
  readonly path: string
  readonly access: Option.Option<RouteAccess>
  readonly payload: Option.Option<Schema.Schema.Any>
}

const keyOf = (method: string, path: string) => `${method} ${path}`

/** Every endpoint of `api` with its declaration; an endpoint's own annotation, never its group's. */
export const declaredRoutes = (api: HttpApi.HttpApi.Any): ReadonlyArray<DeclaredRoute> =>
  RouteTable.forApi(api).routes.map(({ endpoint }) => ({
    method: endpoint.method,
    path: endpoint.path,
    access: Context.getOption(endpoint.annotations, Requires),
    payload: endpoint.payloadSchema
  }))

/** The request body in the endpoint's canonical form, if the endpoint would accept it; else nothing. */
const acceptedBody = (payload: DeclaredRoute["payload"]) =>
  Effect.gen(function*() {
    if (Option.isNone(payload)) return {}
    const schema = payload.value as Schema.Schema<unknown>
    const json = yield* HttpServerRequest.HttpServerRequest.pipe(Effect.flatMap(readJsonBody), Effect.option)
    const accepted = json.pipe(
      Option.flatMapNullable((body) => body),
      Option.flatMap(Schema.decodeUnknownOption(schema)),
      Option.flatMap(Schema.encodeOption(schema))
    )
    return Option.match(accepted, { onNone: () => ({}), onSome: (body) => (Predicate.isRecord(body) ? body : {}) })
  })

/** What a refused write asked for: its path parameters (the tenant aside) and its valid body. Secrets are redacted by the log. */
const attemptedValues = (route: DeclaredRoute, params: Readonly<Record<string, string | undefined>>) =>
  Effect.map(acceptedBody(route.payload), (body) => {
    const { organization_id: _tenant, ...named } = params
    const values = { ...Object.fromEntries(Object.entries(named).filter(([, value]) => value !== undefined)), ...body }
    return Object.keys(values).length === 0 ? null : values
  })

/** The permission check of a route being served, and the same rule asked without running it. */
export interface Policy {
  /** Fails with Forbidden unless the principal may call the route being served. */
  (
    principal: Identity.Principal,
    requestId: string | null
  ): Effect.Effect<void, Errors.Forbidden | Errors.StoreUnavailable, HttpRouter.RouteContext | HttpServerRequest.HttpServerRequest>
  /**
   * Whether the call above would pass for `route`, with nothing to run or record; false also for
   * a route that declares no permission (the call dies for it).
   */
  readonly allows: (principal: Identity.Principal, route: HttpRouter.Route<unknown, unknown>) => boolean
}

export const make = (api: HttpApi.HttpApi.Any): Effect.Effect<Policy, never, Authorization.Authorization> =>
  Effect.gen(function*() {
    const authorization = yield* Authorization.Authorization
    const routes = new Map(declaredRoutes(api).map((route) => [keyOf(route.method, route.path), route]))

    const require = (
      principal: Identity.Principal,
      requestId: string | null
    ): Effect.Effect<void, Errors.Forbidden | Errors.StoreUnavailable, HttpRouter.RouteContext | HttpServerRequest.HttpServerRequest> =>
      Effect.gen(function*() {
        const { params, route } = yield* HttpRouter.RouteContext
        const declared = routes.get(keyOf(route.method, route.path))
        if (declared === undefined || Option.isNone(declared.access)) {
          return yield* Effect.dieMessage(`${route.method} ${route.path} declares no permission (see api/Access.ts)`)
        }
        const access = declared.access.value
        if (Permissions.isAllowed(principal, access.permission)) return
        const attempt = access.attempt
        const attempted = attempt === undefined ? undefined : {
          requestId,
          entry: {
            target: attempt.target,
            table_name: attempt.table_name,
            operation: attempt.operation,
            record_id: attempt.recordIdParam === undefined ? null : params[attempt.recordIdParam] ?? null,
            new_values: yield* attemptedValues(declared, params)
          }
        }
        return yield* authorization.require(principal, access.permission, attempted)
      })
    const allows = (principal: Identity.Principal, route: HttpRouter.Route<unknown, unknown>) => {
      const declared = routes.get(keyOf(route.method, route.path))
      return declared !== undefined && Option.isSome(declared.access) && Permissions.isAllowed(principal, declared.access.value.permission)
    }
    return Object.assign(require, { allows })
  })
