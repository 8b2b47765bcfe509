/**
 * The one place where the HTTP API is composed: handlers and middlewares of every group, the
 * request pipeline, core's services, and the store underneath. Entry points (`Hosting.ts`,
 * `Server.ts`) only add a server or an adapter on top of `ApiLive`.
 */
import { HttpApiBuilder } from "@effect/platform"
import { CoreLive } from "@costline/core"
import { Layer } from "effect"
import { CostlineApi } from "./api/Api.js"
import { AuditHttpLive } from "./api/audit/Http.js"
import { TeamsHttpLive, TeamsV1HttpLive } from "./api/teams/Http.js"
import { TenantFromHeaderLive, TenantFromPathLive } from "./middleware/Authentication.js"
import * as Pipeline from "./middleware/Pipeline.js"
import { type ApiOptions, pipelineOptions } from "./Options.js"

/** Every group's handlers, behind the tenant middlewares; needs core's services. */
export const HandlersLive = HttpApiBuilder.api(CostlineApi).pipe(
  Layer.provide([AuditHttpLive, TeamsHttpLive, TeamsV1HttpLive]),
  Layer.provide([TenantFromHeaderLive, TenantFromPathLive])
)

/** The complete API over a store: what `HttpApiBuilder.serve` / `httpApp` / `toWebHandler` need. */
export const ApiLive = <E>(options: ApiOptions<E>) =>
  Layer.mergeAll(
    HandlersLive,
    HttpApiBuilder.middleware(Pipeline.make(CostlineApi, pipelineOptions(options)))
  ).pipe(
    Layer.provide(CoreLive),
    Layer.provide(options.store)
  )
