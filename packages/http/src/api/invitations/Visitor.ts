/**
 * The middleware of the few v2 routes that take no bearer credential (accepting an invitation,
 * whose token is the credential): the tenant still comes from `x-tenant-id`, only declared input
 * is taken, and an address that spent its budget of failed authentications (`AuthFailureLimit`)
 * is refused with 429 before anything is looked up. The handler spends a failure for every
 * token it cannot accept.
 */
import { HttpApiMiddleware } from "@effect/platform"
import type { HttpApiEndpoint, HttpApiGroup } from "@effect/platform"
import type { Ids } from "@costline/core"
import { Context, Schema } from "effect"
import { Declared } from "../Errors.js"
import { strictBodies } from "../StrictBodies.js"
import { V2_PREFIX } from "../Versions.js"

/** An anonymous caller: the tenant it names and its request id. */
export class Visitor extends Context.Tag("@costline/http/Visitor")<
  Visitor,
  { readonly organizationId: Ids.OrganizationId; readonly requestId: string | null }
>() {}

export class AnonymousTenant extends HttpApiMiddleware.Tag<AnonymousTenant>()("@costline/http/AnonymousTenant", {
  provides: Visitor,
  failure: Schema.Union(Declared.ValidationFailed, Declared.RateLimited)
}) {}

/** A v2 group whose routes take no bearer credential. */
export const v2Anonymous = <Id extends string, Endpoints extends HttpApiEndpoint.HttpApiEndpoint.Any, E, R>(
  group: HttpApiGroup.HttpApiGroup<Id, Endpoints, E, R>
) => strictBodies(group).prefix(V2_PREFIX).middleware(AnonymousTenant)
