/**
 * The whole HTTP API: every v2 and v1 group. To add a route: define the endpoint in its area's
 * `Api.ts` (inside the `v2(...)` or `v1(...)` group) and implement it in the area's `Http.ts`; a
 * new group's `Group.group` goes in `HandlersLive`'s list in `../Layers.ts` (a group missing there
 * does not compile).
 */
import { HttpApi } from "@effect/platform"
import { AnalysisApi } from "./analysis/Api.js"
import { ApiKeysApi } from "./apikeys/Api.js"
import { AuditApi } from "./audit/Api.js"
import { DwAccountsApi, DwAccountsV1Api } from "./dwaccounts/Api.js"
import { Declared } from "./Errors.js"
import { InsightsApi } from "./insights/Api.js"
import { InvitationsApi } from "./invitations/Api.js"
import { SessionsApi } from "./sessions/Api.js"
import { IntelligenceApi } from "./intelligence/Api.js"
import { SsoGroupsApi, SsoGroupsV1Api } from "./ssogroups/Api.js"
import { TeamsApi, TeamsV1Api } from "./teams/Api.js"
import { TicketLinksApi } from "./ticketlinks/Api.js"
import { UsageGroupsApi, UsageGroupsV1Api } from "./usage/Api.js"
import { UserRolesApi, UserRolesV1Api } from "./userroles/Api.js"

export class CostlineApi extends HttpApi.make("costline")
  .add(AuditApi)
  .add(TeamsApi)
  .add(TeamsV1Api)
  .add(SsoGroupsApi)
  .add(SsoGroupsV1Api)
  .add(UserRolesApi)
  .add(UserRolesV1Api)
  // Before any insights group: `/insights/actions/...` must never be read as an `{insight_id}`.
  .add(AnalysisApi)
  .add(InsightsApi)
  .add(TicketLinksApi)
  .add(DwAccountsApi)
  .add(DwAccountsV1Api)
  .add(UsageGroupsApi)
  .add(UsageGroupsV1Api)
  .add(ApiKeysApi)
  .add(SessionsApi)
  .add(InvitationsApi)
  .add(IntelligenceApi)
  // Every operation can meet these (spec: "every v2 operation declares ...").
  .addError(Declared.BadRequest)
  .addError(Declared.NotFound)
  .addError(Declared.RateLimited)
  .addError(Declared.StoreUnavailable)
{}
