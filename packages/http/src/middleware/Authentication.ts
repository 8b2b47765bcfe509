/**
 * The two tenant middlewares of `api/Caller.ts`: bearer credential → principal (core `Auth`),
 * then the tenant the request names must be the principal's organization.
 */
import { HttpRouter, HttpServerRequest } from "@effect/platform"
import { actorOf, Auth, ValidationFailed } from "@costline/core"
import { Effect, Layer } from "effect"
import { Caller, TenantFromHeader, TenantFromPath } from "../api/Caller.js"
import { RequestId } from "./RequestId.js"

const TENANT_HEADER = "x-tenant-id"

const tenantFromHeader = Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) => {
  const tenant = request.headers[TENANT_HEADER]?.trim()
  return tenant === undefined || tenant.length === 0
    ? Effect.fail(ValidationFailed.single(`header.${TENANT_HEADER}`, "missing", `the ${TENANT_HEADER} header is required`))
    : Effect.succeed(tenant)
})

const tenantFromPath = Effect.flatMap(HttpRouter.RouteContext, (route) => {
  const tenant = route.params.organization_id
  return tenant === undefined || tenant.length === 0
    ? Effect.fail(ValidationFailed.single("path.organization_id", "missing", "organization_id is required"))
    : Effect.succeed(tenant)
})

const authenticate = <R>(tenantOf: Effect.Effect<string, ValidationFailed, R>) =>
  Effect.map(Auth, (auth) =>
    Effect.gen(function*() {
      const request = yield* HttpServerRequest.HttpServerRequest
      // Credentials first: an anonymous caller learns nothing about tenants.
      const principal = yield* auth.authenticate(request.headers.authorization)
      yield* auth.requireTenant(principal, yield* tenantOf)
      const requestId = yield* RequestId
      return Caller.of({
        principal,
        organizationId: principal.organizationId,
        requestId,
        actor: actorOf(principal, requestId)
      })
    }))

export const TenantFromHeaderLive = Layer.effect(TenantFromHeader, authenticate(tenantFromHeader))
export const TenantFromPathLive = Layer.effect(TenantFromPath, authenticate(tenantFromPath))
