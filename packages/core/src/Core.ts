/**
 * The one place where core's services are composed. A store provides the repositories and the
 * Transactor (see `Repositories`); `layer` builds every service on top of them.
 */
import { Layer } from "effect"
import * as AuditLog from "./audit/AuditLog.js"
import type { AuditRepo } from "./audit/Repo.js"
import type { InstallationRepo } from "./shared/Installation.js"
import * as ApiKeys from "./identity/ApiKeys.js"
import * as Auth from "./identity/Auth.js"
import * as Authorization from "./identity/Authorization.js"
import * as Organizations from "./identity/Organizations.js"
import * as Invitations from "./identity/Invitations.js"
import type {
  ApiKeysRepo,
  InvitationsRepo,
  OrganizationsRepo,
  RoleAssignmentsRepo,
  SessionsRepo,
  UsersRepo
} from "./identity/Repo.js"
import type { ScopeDirectory } from "./identity/Scope.js"
import * as Scopes from "./identity/Scopes.js"
import * as UserRoles from "./identity/UserRoles.js"
import type { SsoGroupsRepo } from "./ssogroups/Repo.js"
import * as SsoGroups from "./ssogroups/SsoGroups.js"
import type { TeamMembersRepo } from "./teams/Repo.js"
import * as TeamMembers from "./teams/TeamMembers.js"
import * as TeamRoles from "./teams/TeamRoles.js"
import * as Sessions from "./identity/Sessions.js"
import * as Users from "./identity/Users.js"
import type { StoreHealth } from "./health/StoreHealth.js"
import type { RateLimitRepo } from "./ratelimit/Repo.js"
import type { Transactor } from "./shared/Transactor.js"
import type { TeamsRepo } from "./teams/Repo.js"
import * as DwAccounts from "./dwaccounts/DwAccounts.js"
import type { DwAccountsRepo } from "./dwaccounts/Repo.js"
import type { SecretKeyCheckRepo } from "./secrets/KeyCheck.js"
import type { LinkableItems, TicketLinksRepo } from "./ticketlinks/Repo.js"
import * as TicketLinks from "./ticketlinks/TicketLinks.js"
import * as Teams from "./teams/Teams.js"
import type { InsightImportsRepo } from "./insights/ImportRepo.js"
import * as InsightImport from "./insights/InsightImport.js"
import * as InsightQueries from "./insights/InsightQueries.js"
import * as Insights from "./insights/Insights.js"
import type { InsightsRepo } from "./insights/Repo.js"
import * as ListCursors from "./shared/Listing.js"
import * as UsageAttribution from "./usage/AttributionService.js"
import * as BudgetAlerts from "./usage/BudgetAlerts.js"
import type { UsageGroupsRepo, UsageRecordsRepo } from "./usage/Repo.js"
import * as UsageGroups from "./usage/UsageGroups.js"
import * as UsageImport from "./usage/UsageImport.js"
import * as DwIngest from "./intelligence/DwIngest.js"
import type { KeyedUsageRepo } from "./intelligence/Repo.js"

/**
 * Everything a store must provide.
 * @since 0.1.0
 * @category models
 */
export type Repositories =
  | Transactor
  | InstallationRepo
  | AuditRepo
  | OrganizationsRepo
  | UsersRepo
  | ApiKeysRepo
  | SessionsRepo
  | RoleAssignmentsRepo
  | TeamsRepo
  | TeamMembersRepo
  | SsoGroupsRepo
  | InvitationsRepo
  | ScopeDirectory
  | TicketLinksRepo
  | LinkableItems
  | DwAccountsRepo
  | SecretKeyCheckRepo
  | RateLimitRepo
  | StoreHealth
  | InsightsRepo
  | InsightImportsRepo
  | UsageGroupsRepo
  | UsageRecordsRepo
  | KeyedUsageRepo

const AuditLive = AuditLog.layer.pipe(Layer.provide(ListCursors.layer))
const OrganizationsLive = Organizations.layer.pipe(Layer.provide(AuditLive))
const UsersLive = Users.layer.pipe(Layer.provide(OrganizationsLive), Layer.provide(AuditLive))
const SessionsLive = Sessions.layer.pipe(Layer.provide(UsersLive), Layer.provide(AuditLive))
const ScopesLive = Scopes.layer
const TeamsLive = Teams.layer.pipe(Layer.provide([AuditLive, ScopesLive, ListCursors.layer]))
const UsageGroupsLive = UsageGroups.layer.pipe(Layer.provide([AuditLive, ListCursors.layer]))
const InsightsLive = Insights.layer.pipe(Layer.provide([OrganizationsLive, AuditLive, ListCursors.layer]))
const UsageAttributionLive = UsageAttribution.layer.pipe(Layer.provide(UsageGroupsLive))

/**
 * Every core service, given the repositories of a store.
 * @since 0.1.0
 * @category layers
 */
export const layer = Layer.mergeAll(
  AuditLive,
  OrganizationsLive,
  UsersLive,
  ApiKeys.layer.pipe(Layer.provide(OrganizationsLive), Layer.provide(AuditLive)),
  SessionsLive,
  Auth.layer,
  Authorization.layer.pipe(Layer.provide(AuditLive)),
  TeamsLive,
  TeamMembers.layer.pipe(Layer.provide([TeamsLive, AuditLive])),
  TeamRoles.layer.pipe(Layer.provide([TeamsLive, AuditLive, ScopesLive, ListCursors.layer])),
  SsoGroups.layer.pipe(Layer.provide([AuditLive, ScopesLive, ListCursors.layer])),
  UserRoles.layer.pipe(Layer.provide([UsersLive, AuditLive, ScopesLive, ListCursors.layer])),
  Invitations.layer.pipe(Layer.provide([OrganizationsLive, AuditLive, SessionsLive])),
  TicketLinks.layer.pipe(Layer.provide([AuditLive, ListCursors.layer])),
  InsightsLive,
  InsightQueries.layer,
  InsightImport.layer.pipe(Layer.provide([OrganizationsLive, InsightsLive])),
  UsageGroupsLive,
  UsageAttributionLive,
  BudgetAlerts.layer.pipe(Layer.provide([UsageAttributionLive, InsightsLive])),
  UsageImport.layer.pipe(Layer.provide(OrganizationsLive)),
  DwIngest.layer.pipe(Layer.provide([OrganizationsLive, InsightsLive, AuditLive]))
)

/**
 * `layer` plus the services that seal secrets (warehouse credentials). Where master keys come
 * from is the host's decision (environment, a key file, a vault), so `Secrets` stays a
 * requirement, beside the store's repositories.
 * @since 0.1.0
 * @category layers
 */
export const layerWithSecrets = DwAccounts.layer.pipe(Layer.provideMerge(layer))
