/**
 * Who is calling and for which tenant. Every API endpoint sits behind one of the two tenant
 * middlewares below; both authenticate the bearer credential and check that it belongs to the
 * tenant the request names, then provide `Caller` to the handler.
 */
import { HttpApiMiddleware } from "@effect/platform"
import type { Actor, Identity, Ids } from "@costline/core"
import { Context, Schema } from "effect"
import { Declared } from "./Errors.js"

export class Caller extends Context.Tag("@costline/http/Caller")<
  Caller,
  {
    readonly principal: Identity.Principal
    readonly organizationId: Ids.OrganizationId
    readonly requestId: string | null
    /** How the audit log names this caller in this request. */
    readonly actor: Actor.Actor
  }
>() {}

const failure = Schema.Union(
  Declared.Unauthorized,
  Declared.Forbidden,
  Declared.ValidationFailed,
  Declared.RateLimited,
  Declared.StoreUnavailable
)

/** v2: the tenant is the required `x-tenant-id` header. */
export class TenantFromHeader extends HttpApiMiddleware.Tag<TenantFromHeader>()("@costline/http/TenantFromHeader", {
  provides: Caller,
  failure
}) {}

/** v1: the tenant is the `organization_id` path parameter. */
export class TenantFromPath extends HttpApiMiddleware.Tag<TenantFromPath>()("@costline/http/TenantFromPath", {
  provides: Caller,
  failure
}) {}

/** v1 routes whose path names no organization (`/api/dw-accounts/...`): the tenant is the credential's own. */
export class TenantFromCredential extends HttpApiMiddleware.Tag<TenantFromCredential>()(
  "@costline/http/TenantFromCredential",
  { provides: Caller, failure }
) {}
