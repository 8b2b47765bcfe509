/**
 * The one place where the HTTP API is composed: handlers and middlewares of every group, the
 * request pipeline, core's services, and the store underneath. Entry points (`Hosting.ts`,
 * `Server.ts`) only add a server or an adapter on top of `ApiLive`.
 */
import { HttpApiBuilder } from "@effect/platform"
import { Core } from "@costline/core"
import { Layer } from "effect"
import { CostlineApi } from "./api/Api.js"
import { AnalysisHttpLive } from "./api/analysis/Http.js"
import { ApiKeysHttpLive } from "./api/apikeys/Http.js"
import { AuditHttpLive } from "./api/audit/Http.js"
import { DwAccountsHttpLive, DwAccountsV1HttpLive } from "./api/dwaccounts/Http.js"
import { InsightsHttpLive } from "./api/insights/Http.js"
import { InvitationsHttpLive } from "./api/invitations/Http.js"
import { AnonymousTenantLive } from "./api/invitations/AnonymousTenant.js"
import { SessionsHttpLive } from "./api/sessions/Http.js"
import { IntelligenceHttpLive } from "./api/intelligence/Http.js"
import { SsoGroupsHttpLive, SsoGroupsV1HttpLive } from "./api/ssogroups/Http.js"
import { TeamsHttpLive, TeamsV1HttpLive } from "./api/teams/Http.js"
import { TicketLinksHttpLive } from "./api/ticketlinks/Http.js"
import { UsageGroupsHttpLive } from "./api/usage/Http.js"
import { UsageGroupsV1HttpLive } from "./api/usage/HttpV1.js"
import { UserRolesHttpLive, UserRolesV1HttpLive } from "./api/userroles/Http.js"
import { TenantFromCredentialLive, TenantFromHeaderLive, TenantFromPathLive } from "./middleware/Authentication.js"
import * as Pipeline from "./middleware/Pipeline.js"
import * as RateLimit from "./middleware/RateLimit.js"
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

/** Every group's handlers, behind the tenant middlewares; needs core's services. */
export const HandlersLive = HttpApiBuilder.api(CostlineApi).pipe(
  Layer.provide([
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
  ]),
  Layer.provide([TenantFromHeaderLive, TenantFromPathLive, TenantFromCredentialLive, AnonymousTenantLive])
)

/** The complete API over a store: what `HttpApiBuilder.serve` / `httpApp` / `toWebHandler` need. */
export const ApiLive = <E>(options: ApiOptions<E>) =>
  Layer.mergeAll(
    HandlersLive.pipe(Layer.provide(attributionTimeoutLayer(options))),
    HttpApiBuilder.middleware(Pipeline.make(CostlineApi, pipelineOptions(options))),
    storePoolMetricsLayer(options)
  ).pipe(
    Layer.provide(analysisLayer(options)),
    Layer.provide(RateLimit.layer(rateLimitPolicy(options))),
    Layer.provide(authFailureLayer(options)),
    Layer.provide(Core.layerWithSecrets),
    Layer.provide(secretsLayer(options)),
    Layer.provide(options.store),
    Layer.provide(tracingLayer(options)),
    Layer.provide(metricsLayer(options)),
    Layer.provide(docsTenantLayer(options))
  )
