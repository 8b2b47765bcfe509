/**
 * The one place where core's services are composed. A store provides the repositories and the
 * Transactor (see `Repositories`); `layer` builds every service on top of them.
 */
import { Context, Effect, Layer } from "effect"
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

/**
 * One step of a service graph that a single layer builds: runs `make` with the services built
 * so far (its other requirements come from outside) and adds the service it returns. A layer per
 * service costs the memo map ~110 interpreter steps to build (a scope, a deferred, a permit, a
 * FiberRefs diff), and each `Layer.provide` / `merge` node between them as many again: a start
 * built ~400 of them (docs/performance.md, "Cold start"). Steps run in order, so a service comes
 * after the services it needs; one added too early leaves its dependency in the layer's
 * requirements, and the layer's declared type refuses it.
 * @since 0.1.0
 * @category constructors
 */
export const addService = <I, S, E, R>(tag: Context.Tag<I, S>, make: Effect.Effect<S, E, R>) =>
<A, E0, R0>(
  built: Effect.Effect<Context.Context<A>, E0, R0>
): Effect.Effect<Context.Context<A | I>, E | E0, R0 | Exclude<R, A>> =>
  Effect.flatMap(built, (context) => Effect.map(Effect.provide(make, context), (service) => Context.add(context, tag, service)))

/**
 * Every service of `layer`.
 * @since 0.1.0
 * @category models
 */
export type Services =
  | ListCursors.ListCursors
  | AuditLog.AuditLog
  | Organizations.Organizations
  | Users.Users
  | ApiKeys.ApiKeys
  | Sessions.Sessions
  | Auth.Auth
  | Authorization.Authorization
  | Scopes.Scopes
  | Teams.Teams
  | TeamMembers.TeamMembers
  | TeamRoles.TeamRoles
  | SsoGroups.SsoGroups
  | UserRoles.UserRoles
  | Invitations.Invitations
  | TicketLinks.TicketLinks
  | Insights.Insights
  | InsightQueries.InsightQueries
  | InsightImport.InsightImport
  | UsageGroups.UsageGroups
  | UsageAttribution.Attribution
  | BudgetAlerts.BudgetAlerts
  | UsageImport.UsageImport
  | DwIngest.DwIngest

/** Core's services in dependency order, each built once and seen by those after it. */
const services = Effect.succeed(Context.empty()).pipe(
  addService(ListCursors.ListCursors, ListCursors.make),
  addService(AuditLog.AuditLog, AuditLog.make),
  addService(Organizations.Organizations, Organizations.make),
  addService(Users.Users, Users.make),
  addService(ApiKeys.ApiKeys, ApiKeys.make),
  addService(Sessions.Sessions, Sessions.make),
  addService(Auth.Auth, Auth.make),
  addService(Authorization.Authorization, Authorization.make),
  addService(Scopes.Scopes, Scopes.make),
  addService(Teams.Teams, Teams.make),
  addService(TeamMembers.TeamMembers, TeamMembers.make),
  addService(TeamRoles.TeamRoles, TeamRoles.make),
  addService(SsoGroups.SsoGroups, SsoGroups.make),
  addService(UserRoles.UserRoles, UserRoles.make),
  addService(Invitations.Invitations, Invitations.make)
).pipe(
  addService(TicketLinks.TicketLinks, TicketLinks.make),
  addService(Insights.Insights, Insights.make),
  addService(InsightQueries.InsightQueries, InsightQueries.make),
  addService(InsightImport.InsightImport, InsightImport.make),
  addService(UsageGroups.UsageGroups, UsageGroups.make),
  addService(UsageAttribution.Attribution, UsageAttribution.make),
  addService(BudgetAlerts.BudgetAlerts, BudgetAlerts.make),
  addService(UsageImport.UsageImport, UsageImport.make),
  addService(DwIngest.DwIngest, DwIngest.make)
)

/**
 * Every core service, given the repositories of a store: one layer that builds them in
 * dependency order (each service's own `layer` remains, for a host that builds one alone).
 * @since 0.1.0
 * @category layers
 */
export const layer: Layer.Layer<Services, never, Repositories> = Layer.effectContext(services)

/**
 * `layer` plus the services that seal secrets (warehouse credentials). Where master keys come
 * from is the host's decision (environment, a key file, a vault), so `Secrets` stays a
 * requirement, beside the store's repositories.
 * @since 0.1.0
 * @category layers
 */
export const layerWithSecrets: Layer.Layer<
  Services | DwAccounts.DwAccounts,
  never,
  Repositories | Exclude<Layer.Layer.Context<typeof DwAccounts.layer>, Services>
> = Layer.effectContext(services.pipe(addService(DwAccounts.DwAccounts, DwAccounts.make)))
