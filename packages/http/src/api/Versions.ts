/**
 * What makes a group v2 or v1. An area's `Api.ts` builds its endpoints with unprefixed paths and
 * wraps the group in `v2(...)` or `v1(...)`: prefix, tenant middleware, strict bodies and (v1)
 * deprecation come from here, so adding a route is one endpoint definition and one handler.
 */
import { HttpApiSchema, OpenApi } from "@effect/platform"
import type { HttpApiEndpoint, HttpApiGroup } from "@effect/platform"
import { Context, Schema } from "effect"
import { pathSegments } from "../routing/RouteTable.js"
import { TenantFromCredential, TenantFromHeader, TenantFromPath } from "./Caller.js"
import { strictBodies } from "./StrictBodies.js"

export const V2_PREFIX = "/v2"
export const V1_PREFIX = "/api"

/**
 * On a v1 endpoint: the path of its v2 replacement, with the same `:param` names where the two
 * share parameters (`/v2/teams/:team_id`). Sent as `Link: <…>; rel="successor-version"`.
 */
export class SuccessorVersion extends Context.Tag("@costline/http/SuccessorVersion")<SuccessorVersion, string>() {}

/** The `{organization_id}` segment that starts every tenant-scoped v1 path. */
export const OrganizationIdParam = HttpApiSchema.param("organization_id", Schema.String)

export const v2 = <Id extends string, Endpoints extends HttpApiEndpoint.HttpApiEndpoint.Any, E, R>(
  group: HttpApiGroup.HttpApiGroup<Id, Endpoints, E, R>
) => strictBodies(group).prefix(V2_PREFIX).middleware(TenantFromHeader)

export const v1 = <Id extends string, Endpoints extends HttpApiEndpoint.HttpApiEndpoint.Any, E, R>(
  group: HttpApiGroup.HttpApiGroup<Id, Endpoints, E, R>
) => strictBodies(group).prefix(V1_PREFIX).middleware(TenantFromPath).annotate(OpenApi.Deprecated, true)

/** A v1 group whose paths name no organization: the tenant is the credential's own. */
export const v1OwnTenant = <Id extends string, Endpoints extends HttpApiEndpoint.HttpApiEndpoint.Any, E, R>(
  group: HttpApiGroup.HttpApiGroup<Id, Endpoints, E, R>
) => strictBodies(group).prefix(V1_PREFIX).middleware(TenantFromCredential).annotate(OpenApi.Deprecated, true)

/** Which rendering of errors and which headers a request path gets. */
export type ApiVersion = "v1" | "v2"

/** Matches paths as the router does (case-insensitive, duplicate slashes ignored). */
export const versionOf = (path: string): ApiVersion =>
  `/${pathSegments(path)[0]?.toLowerCase() ?? ""}` === V1_PREFIX ? "v1" : "v2"
