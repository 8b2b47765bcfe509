/**
 * The tenant middlewares of `api/Caller.ts`: bearer credential → principal (core `Auth`), then
 * the tenant the request names must be the principal's organization, then the principal must
 * hold the permission the endpoint declares (`AccessPolicy`), then the request must carry only
 * input the endpoint declares (`DeclaredInput`).
 */
import { HttpRouter, HttpServerRequest } from "@effect/platform"
import { Auth, Authorization, Errors } from "@costline/core"
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

/** The tenant the request's `x-tenant-id` names. */
const headerTenant = (request: HttpServerRequest.HttpServerRequest) => {
  const tenant = request.headers[TENANT_HEADER]?.trim()
  return tenant === undefined || tenant.length === 0
    ? Effect.fail(Errors.ValidationFailed.single(`header.${TENANT_HEADER}`, "missing", `the ${TENANT_HEADER} header is required`))
    : Effect.succeed(tenant)
}

export const tenantFromHeader = RequestFiber.withRequest(headerTenant)

const tenantFromPath = Effect.flatMap(HttpRouter.RouteContext, (route) => {
  const tenant = route.params.organization_id
  return tenant === undefined || tenant.length === 0
    ? Effect.fail(Errors.ValidationFailed.single("path.organization_id", "missing", "organization_id is required"))
    : Effect.succeed(tenant)
})

const declaredInput = DeclaredInput.make(CostlineApi)

/** `tenantOf` reads the tenant the request names; none for routes whose tenant is the credential's own. */
const authenticate = <R>(tenantOf?: Effect.Effect<string, Errors.ValidationFailed, R>) =>
  Effect.map(
    Effect.all([Auth.Auth, RateLimitGate, AuthFailureGate, AccessPolicy.make(CostlineApi)]),
    ([auth, rateLimit, failures, requirePermission]) =>
      // The request and its id read in one step (`RequestFiber`): this runs before every operation.
      RequestFiber.withRequest((request, fiber) => {
        const requestId = RequestFiber.factsOf(fiber).requestId
        return Effect.gen(function*() {
          // An address that spent its failures is refused before its credential is looked up.
          yield* failures.check
          // Credentials first: an anonymous caller learns nothing about tenants.
          const principal = yield* auth.authenticate(request.headers.authorization).pipe(
            Effect.tapErrorTag("Unauthorized", () => failures.record)
          )
          AccessLog.recordTenant(fiber, principal.organizationId)
          // Every request of a known credential counts, also one that names the wrong tenant.
          yield* rateLimit.admit(principal)
          if (tenantOf !== undefined) yield* auth.requireTenant(principal, yield* tenantOf)
          yield* requirePermission(principal, requestId)
          // Then only what the operation declares: no unknown query parameter, no body where none is taken.
          yield* declaredInput
          return Caller.of({
            principal,
            organizationId: principal.organizationId,
            requestId,
            actor: Authorization.actorOf(principal, requestId)
          })
        })
      })
  )

/** `make` typed as the service of `tag` (which fixes the context its handler is inferred with). */
const middlewareOf = <I, S>(_tag: Context.Tag<I, S>) => <E, R>(make: Effect.Effect<S, E, R>) => make

export const makeTenantFromHeader = middlewareOf(TenantFromHeader)(authenticate(tenantFromHeader))
export const makeTenantFromPath = middlewareOf(TenantFromPath)(authenticate(tenantFromPath))
export const makeTenantFromCredential = middlewareOf(TenantFromCredential)(authenticate())

export const TenantFromHeaderLive = Layer.effect(TenantFromHeader, makeTenantFromHeader)
export const TenantFromPathLive = Layer.effect(TenantFromPath, makeTenantFromPath)
export const TenantFromCredentialLive = Layer.effect(TenantFromCredential, makeTenantFromCredential)
