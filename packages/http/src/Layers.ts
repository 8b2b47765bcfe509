/**
 * The one place where the HTTP API is composed: handlers and middlewares of every group, the
 * request pipeline, core's services, and the store underneath. Entry points (`Hosting.ts`,
 * `Server.ts`) only add a server or an adapter on top of `ApiLive`.
 */
import { HttpApiBuilder } from "@effect/platform"
import { Core } from "@costline/core"
import { Context, Effect, Layer } from "effect"
import { CostlineApi } from "./api/Api.js"
import { AnalysisHttpLive } from "./api/analysis/Http.js"
import { ApiKeysHttpLive } from "./api/apikeys/Http.js"
import { AuditHttpLive } from "./api/audit/Http.js"
import { DwAccountsHttpLive, DwAccountsV1HttpLive } from "./api/dwaccounts/Http.js"
import { InsightsHttpLive } from "./api/insights/Http.js"
import { InvitationsHttpLive } from "./api/invitations/Http.js"
import * as AnonymousTenant from "./api/invitations/AnonymousTenant.js"
import { AnonymousTenant as AnonymousTenantTag } from "./api/invitations/Visitor.js"
import { SessionsHttpLive } from "./api/sessions/Http.js"
import { IntelligenceHttpLive } from "./api/intelligence/Http.js"
import { SsoGroupsHttpLive, SsoGroupsV1HttpLive } from "./api/ssogroups/Http.js"
import { TeamsHttpLive, TeamsV1HttpLive } from "./api/teams/Http.js"
import { TicketLinksHttpLive } from "./api/ticketlinks/Http.js"
import { UsageGroupsHttpLive } from "./api/usage/Http.js"
import { UsageGroupsV1HttpLive } from "./api/usage/HttpV1.js"
import { UserRolesHttpLive, UserRolesV1HttpLive } from "./api/userroles/Http.js"
import { TenantFromCredential, TenantFromHeader, TenantFromPath } from "./api/Caller.js"
import * as Authentication from "./middleware/Authentication.js"
import * as Pipeline from "./middleware/Pipeline.js"
import * as RateLimit from "./middleware/RateLimit.js"
import * as Routes from "./routing/Routes.js"
import {
  analysisLayer,
  type ApiOptions,
  attributionTimeoutLayer,
  authFailureLayer,
  docsTenantLayer,
  metricsLayer,
  pipelineOptions,
  rateLimitPolicy,
  secretsLayer,
  storePoolMetricsLayer,
  tracingLayer
} from "./Options.js"

/**
 * The tenant middlewares, built by one layer (`Core.addService`): a layer each, and the merge and
 * `provide` nodes between them, cost the memo map ~110 interpreter steps apiece at every start.
 */
const TenantsLive = Layer.effectContext(
  Effect.succeed(Context.empty()).pipe(
    Core.addService(TenantFromHeader, Authentication.makeTenantFromHeader),
    Core.addService(TenantFromPath, Authentication.makeTenantFromPath),
    Core.addService(TenantFromCredential, Authentication.makeTenantFromCredential),
    Core.addService(AnonymousTenantTag, AnonymousTenant.make)
  )
)

/**
 * Every group's routes, compiled by one layer (`Routes.layer`; a group left out does not
 * compile), behind the tenant middlewares; needs core's services.
 */
export const HandlersLive = Routes.layer(CostlineApi, [
  AuditHttpLive,
  TeamsHttpLive,
  TeamsV1HttpLive,
  SsoGroupsHttpLive,
  SsoGroupsV1HttpLive,
  UserRolesHttpLive,
  UserRolesV1HttpLive,
  AnalysisHttpLive,
  InsightsHttpLive,
  TicketLinksHttpLive,
  UsageGroupsHttpLive,
  UsageGroupsV1HttpLive,
  DwAccountsHttpLive,
  DwAccountsV1HttpLive,
  ApiKeysHttpLive,
  SessionsHttpLive,
  InvitationsHttpLive,
  IntelligenceHttpLive
]).pipe(Layer.provide(TenantsLive))

/**
 * The complete API over a store: the routes and the pipeline, what `Dispatch.httpApp` serves.
 * Few `Layer.provide`s: each one is four layers for the memo map to build (~450 interpreter steps
 * at every start), so what the store and the host's options provide is provided together.
 */
export const ApiLive = <E>(options: ApiOptions<E>) => {
  // Core's services and the gates over the store; the store's own services stay visible
  // (`storePoolMetricsLayer` samples its pool).
  const services = Layer.mergeAll(
    Core.layerWithSecrets,
    analysisLayer(options),
    RateLimit.layer(rateLimitPolicy(options)),
    authFailureLayer(options)
  ).pipe(Layer.provideMerge(Layer.merge(options.store, secretsLayer(options))))
  return Layer.mergeAll(
    HandlersLive,
    HttpApiBuilder.middleware(Pipeline.make(CostlineApi, pipelineOptions(options))),
    storePoolMetricsLayer(options)
  ).pipe(
    Layer.provide(services),
    // Settings of the whole build (spans off, metrics, docs examples), the store's included.
    Layer.provide([tracingLayer(options), metricsLayer(options), docsTenantLayer(options), attributionTimeoutLayer(options)])
  )
}
