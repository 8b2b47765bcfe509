/**
 * The tenant middlewares of `api/Caller.ts`: bearer credential → principal (core `Auth`), then
 * the tenant the request names must be the principal's organization, then the principal must
 * hold the permission the endpoint declares (`AccessPolicy`), then the request must carry only
 * input the endpoint declares (`DeclaredInput`).
 */
import { HttpRouter, HttpServerRequest } from "@effect/platform"
import { Auth, Authorization, Errors, type Identity } from "@costline/core"
import { Context, Effect, Layer } from "effect"
import { CostlineApi } from "../api/Api.js"
import { Caller, TenantFromCredential, TenantFromHeader, TenantFromPath } from "../api/Caller.js"
import * as AccessPolicy from "./AccessPolicy.js"
import * as AccessLog from "./AccessLog.js"
import * as DeclaredInput from "./DeclaredInput.js"
import { AuthFailureGate } from "./AuthFailureLimit.js"
import { RateLimitGate } from "./RateLimit.js"
import * as RequestFiber from "../routing/RequestFiber.js"

const TENANT_HEADER = "x-tenant-id"

/** The tenant the request's `x-tenant-id` names, if it names one. */
const namedInHeader = (request: HttpServerRequest.HttpServerRequest): string | undefined => {
  const tenant = request.headers[TENANT_HEADER]?.trim()
  return tenant === undefined || tenant.length === 0 ? undefined : tenant
}

const headerTenant = (request: HttpServerRequest.HttpServerRequest) => {
  const tenant = namedInHeader(request)
  return tenant === undefined
    ? Effect.fail(Errors.ValidationFailed.single(`header.${TENANT_HEADER}`, "missing", `the ${TENANT_HEADER} header is required`))
    : Effect.succeed(tenant)
}

export const tenantFromHeader = RequestFiber.withRequest(headerTenant)

/** The tenant the route's path names, if it names one. */
const namedInPath = (route: HttpRouter.RouteContext): string | undefined => {
  const tenant = route.params.organization_id
  return tenant === undefined || tenant.length === 0 ? undefined : tenant
}

const tenantFromPath = Effect.flatMap(HttpRouter.RouteContext, (route) => {
  const tenant = namedInPath(route)
  return tenant === undefined
    ? Effect.fail(Errors.ValidationFailed.single("path.organization_id", "missing", "organization_id is required"))
    : Effect.succeed(tenant)
})

/** Where a route's tenant is named: read as an effect (failing when it is not named), or looked at now. */
interface TenantSource<R> {
  readonly read: Effect.Effect<string, Errors.ValidationFailed, R>
  readonly named: (request: HttpServerRequest.HttpServerRequest, route: HttpRouter.RouteContext) => string | undefined
}

const fromHeader: TenantSource<HttpServerRequest.HttpServerRequest> = { read: tenantFromHeader, named: namedInHeader }
const fromPath: TenantSource<HttpRouter.RouteContext> = { read: tenantFromPath, named: (_request, route) => namedInPath(route) }

const declaredInput = DeclaredInput.makeChecks(CostlineApi)

const callerOf = (principal: Identity.Principal, requestId: string | null) =>
  Caller.of({
    principal,
    organizationId: principal.organizationId,
    requestId,
    actor: Authorization.actorOf(principal, requestId)
  })

/**
 * `tenant` is where the request names its tenant; none for routes whose tenant is the
 * credential's own.
 *
 * Every rule below but the rate limit has a question that answers it without running anything
 * (`admits`, `authenticateCached`, `allows`, `accepts`): when all of them pass, as they do for
 * nearly every request of a key in use, the caller is answered in the request's one step, after
 * the request is counted against its credential's budget when a rate limit is in force (the one
 * rule that writes; its refusal is the same 429 the rules in order give, as every other rule
 * passes). Otherwise the rules run as effects, in their order, and the first that fails answers
 * (and audits, and counts the failure). Both ways give the same caller.
 */
const authenticate = <R>(tenant?: TenantSource<R>) =>
  Effect.map(
    Effect.all([Auth.Auth, RateLimitGate, AuthFailureGate, AccessPolicy.make(CostlineApi)]),
    ([auth, rateLimit, failures, requirePermission]) => {
      const checked = (request: HttpServerRequest.HttpServerRequest, fiber: RequestFiber.AnyFiber, requestId: string | null) =>
        Effect.gen(function*() {
          // An address that spent its failures is refused before its credential is looked up.
          yield* failures.check
          // Credentials first: an anonymous caller learns nothing about tenants.
          const principal = yield* auth.authenticate(request.headers.authorization).pipe(
            Effect.tapErrorTag("Unauthorized", () => failures.record)
          )
          AccessLog.recordTenant(fiber, principal.organizationId)
          // Every request of a known credential counts, also one that names the wrong tenant.
          yield* rateLimit.admit(principal)
          if (tenant !== undefined) yield* auth.requireTenant(principal, yield* tenant.read)
          yield* requirePermission(principal, requestId)
          // Then only what the operation declares: no unknown query parameter, no body where none is taken.
          yield* declaredInput.check
          return callerOf(principal, requestId)
        })
      /** The caller when every rule but the rate limit passes with nothing to run, count or write; else undefined. */
      const passing = (request: HttpServerRequest.HttpServerRequest, fiber: RequestFiber.AnyFiber, requestId: string | null) => {
        if (!failures.admits(fiber)) return undefined
        const principal = auth.authenticateCached(request.headers.authorization, RequestFiber.currentTimeMillis(fiber))
        if (principal === undefined) return undefined
        const route = Context.getOrElse(fiber.currentContext, HttpRouter.RouteContext, () => undefined)
        if (route === undefined) return undefined
        if (tenant !== undefined && tenant.named(request, route) !== principal.organizationId) return undefined
        if (!requirePermission.allows(principal, route.route) || !declaredInput.accepts(route.route, request)) return undefined
        AccessLog.recordTenant(fiber, principal.organizationId)
        return callerOf(principal, requestId)
      }
      // The request and its id read in one step (`RequestFiber`): this runs before every operation.
      return RequestFiber.withRequest((request, fiber) => {
        const requestId = RequestFiber.factsOf(fiber).requestId
        const caller = passing(request, fiber, requestId)
        if (caller === undefined) return checked(request, fiber, requestId)
        return rateLimit.admitsAll ? Effect.succeed(caller) : Effect.as(rateLimit.admit(caller.principal), caller)
      })
    }
  )

/** `make` typed as the service of `tag` (which fixes the context its handler is inferred with). */
const middlewareOf = <I, S>(_tag: Context.Tag<I, S>) => <E, R>(make: Effect.Effect<S, E, R>) => make

export const makeTenantFromHeader = middlewareOf(TenantFromHeader)(authenticate(fromHeader))
export const makeTenantFromPath = middlewareOf(TenantFromPath)(authenticate(fromPath))
export const makeTenantFromCredential = middlewareOf(TenantFromCredential)(authenticate())

export const TenantFromHeaderLive = Layer.effect(TenantFromHeader, makeTenantFromHeader)
export const TenantFromPathLive = Layer.effect(TenantFromPath, makeTenantFromPath)
export const TenantFromCredentialLive = Layer.effect(TenantFromCredential, makeTenantFromCredential)
