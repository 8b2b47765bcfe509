/**
 * The whole HTTP API: every v2 and v1 group. To add a route: define the endpoint in its area's
 * `Api.ts` (inside the `v2(...)` or `v1(...)` group), implement it in the area's `Http.ts`, and
 * provide that layer in `../Layers.ts`.
 */
import { HttpApi } from "@effect/platform"
import { AuditApi } from "./audit/Api.js"
import { Declared } from "./Errors.js"
import { TeamsApi, TeamsV1Api } from "./teams/Api.js"

export class CostlineApi extends HttpApi.make("costline")
  .add(AuditApi)
  .add(TeamsApi)
  .add(TeamsV1Api)
  // Every operation can meet these (spec: "every v2 operation declares ...").
  .addError(Declared.BadRequest)
  .addError(Declared.NotFound)
  .addError(Declared.RateLimited)
  .addError(Declared.StoreUnavailable)
{}
