/**
 * @costline/core: domain services over repository interfaces. One namespace per module, as
 * @effect/sql and @effect/platform are laid out: `import { Insights } from "@costline/core"`, then
 * `Insights.Insights` (the service), `Insights.layer`, `Insights.make`. A module's live layer is
 * `layer`; variants are `layer<Variant>` (`Core.layerWithSecrets`, `RateLimitRepo.layerMemory`).
 * Each namespace is also a subpath (`@costline/core/Insights`), which is how declaration emit
 * names a core type in another package. Modules not exported here are internal.
 *
 * @since 0.1.0
 */

// The one place core's services are composed

/** @since 0.1.0 */
export * as Core from "./Core.js"

// Query analysis and model-generated code changes: the contract @costline/analysis implements

/** @since 0.1.0 */
export * as QueryAnalysis from "./analysis/index.js"

// The audit log: records, their storage and the exactly-once export

/** @since 0.1.0 */
export * as Audit from "./audit/Domain.js"

/** @since 0.1.0 */
export * as AuditLog from "./audit/AuditLog.js"

/** @since 0.1.0 */
export * as AuditRepo from "./audit/Repo.js"

// Warehouse accounts and their key-pair credentials

/** @since 0.1.0 */
export * as DwAccount from "./dwaccounts/Domain.js"

/** @since 0.1.0 */
export * as DwAccountChange from "./dwaccounts/Change.js"

/** @since 0.1.0 */
export * as DwAccounts from "./dwaccounts/DwAccounts.js"

/** @since 0.1.0 */
export * as DwAccountsRepo from "./dwaccounts/Repo.js"

/** @since 0.1.0 */
export * as PrivateKey from "./dwaccounts/PrivateKey.js"

// Health of the process's dependencies, for readiness probes

/** @since 0.1.0 */
export * as StoreHealth from "./health/StoreHealth.js"

/** @since 0.1.0 */
export * as StorePool from "./health/StorePool.js"

// Organizations, users, API keys, sessions, invitations, roles and the permission rules

/** @since 0.1.0 */
export * as ApiKeys from "./identity/ApiKeys.js"

/** @since 0.1.0 */
export * as ApiToken from "./identity/ApiToken.js"

/** @since 0.1.0 */
export * as Auth from "./identity/Auth.js"

/** @since 0.1.0 */
export * as Authorization from "./identity/Authorization.js"

/** @since 0.1.0 */
export * as CredentialChanges from "./identity/CredentialChanges.js"

/** @since 0.1.0 */
export * as EffectiveRoles from "./identity/EffectiveRoles.js"

/** @since 0.1.0 */
export * as GrantRule from "./identity/GrantRule.js"

/** @since 0.1.0 */
export * as Identity from "./identity/Domain.js"

/** @since 0.1.0 */
export * as IdentityRepo from "./identity/Repo.js"

/** @since 0.1.0 */
export * as Invitation from "./identity/Invitation.js"

/** @since 0.1.0 */
export * as Invitations from "./identity/Invitations.js"

/** @since 0.1.0 */
export * as Organizations from "./identity/Organizations.js"

/** @since 0.1.0 */
export * as Permissions from "./identity/Permissions.js"

/** @since 0.1.0 */
export * as RoleAssignment from "./identity/RoleAssignment.js"

/** @since 0.1.0 */
export * as RoleScope from "./identity/Scope.js"

/** @since 0.1.0 */
export * as RoleSources from "./identity/RoleSources.js"

/** @since 0.1.0 */
export * as Scopes from "./identity/Scopes.js"

/** @since 0.1.0 */
export * as Sessions from "./identity/Sessions.js"

/** @since 0.1.0 */
export * as UserRoles from "./identity/UserRoles.js"

/** @since 0.1.0 */
export * as Users from "./identity/Users.js"

// Insights: the domain, updates under preconditions, views, imports and the aggregate query

/** @since 0.1.0 */
export * as Insight from "./insights/Domain.js"

/** @since 0.1.0 */
export * as InsightETag from "./insights/ETag.js"

/** @since 0.1.0 */
export * as InsightImport from "./insights/InsightImport.js"

/** @since 0.1.0 */
export * as InsightImportsRepo from "./insights/ImportRepo.js"

/** @since 0.1.0 */
export * as InsightQueries from "./insights/InsightQueries.js"

/** @since 0.1.0 */
export * as Insights from "./insights/Insights.js"

/** @since 0.1.0 */
export * as InsightsRepo from "./insights/Repo.js"

/** @since 0.1.0 */
export * as InsightStatus from "./insights/InsightStatus.js"

/** @since 0.1.0 */
export * as InsightUpdate from "./insights/Update.js"

/** @since 0.1.0 */
export * as InsightUpsert from "./insights/Upsert.js"

/** @since 0.1.0 */
export * as ViewDay from "./insights/ViewDay.js"

// Cost intelligence: per-query and idle cost and insights from the warehouse's account-usage exports

/** @since 0.1.0 */
export * as CostIntelligenceSettings from "./intelligence/Settings.js"

/** @since 0.1.0 */
export * as DwAllocation from "./intelligence/Allocation.js"

/** @since 0.1.0 */
export * as DwDetectors from "./intelligence/Detectors.js"

/** @since 0.1.0 */
export * as DwExportFile from "./intelligence/ExportFile.js"

/** @since 0.1.0 */
export * as DwExportGenerator from "./intelligence/ExportGenerator.js"

/** @since 0.1.0 */
export * as DwExports from "./intelligence/Exports.js"

/** @since 0.1.0 */
export * as DwIngest from "./intelligence/DwIngest.js"

/** @since 0.1.0 */
export * as KeyedUsageRepo from "./intelligence/Repo.js"

// Rate limiting: the GCRA rule, its storage and the per-credential limiter

/** @since 0.1.0 */
export * as Gcra from "./ratelimit/Gcra.js"

/** @since 0.1.0 */
export * as RateLimiter from "./ratelimit/RateLimiter.js"

/** @since 0.1.0 */
export * as RateLimitRepo from "./ratelimit/Repo.js"

// Secrets at rest: envelope encryption under rotatable master keys

/** @since 0.1.0 */
export * as Envelope from "./secrets/Envelope.js"

/** @since 0.1.0 */
export * as KeyCheck from "./secrets/KeyCheck.js"

/** @since 0.1.0 */
export * as MasterKeys from "./secrets/MasterKeys.js"

/** @since 0.1.0 */
export * as SecretFields from "./secrets/SecretFields.js"

/** @since 0.1.0 */
export * as Secrets from "./secrets/Secrets.js"

// Rules every area shares: actors, errors, ids, paging, preconditions, ETags

/** @since 0.1.0 */
export * as Actor from "./shared/Actor.js"

/** @since 0.1.0 */
export * as CanonicalTime from "./shared/CanonicalTime.js"

/** @since 0.1.0 */
export * as Construct from "./shared/Construct.js"

/** @since 0.1.0 */
export * as Errors from "./shared/Errors.js"

/** @since 0.1.0 */
export * as ETag from "./shared/ETag.js"

/** @since 0.1.0 */
export * as Ids from "./shared/Ids.js"

/** @since 0.1.0 */
export * as Installation from "./shared/Installation.js"

/** @since 0.1.0 */
export * as LayeredMap from "./shared/LayeredMap.js"

/** @since 0.1.0 */
export * as Listing from "./shared/Listing.js"

/** @since 0.1.0 */
export * as PageToken from "./shared/PageToken.js"

/** @since 0.1.0 */
export * as Precondition from "./shared/Precondition.js"

/** @since 0.1.0 */
export * as Slices from "./shared/Slices.js"

/** @since 0.1.0 */
export * as StorableText from "./shared/StorableText.js"

/** @since 0.1.0 */
export * as Transactor from "./shared/Transactor.js"

// SSO group mappings

/** @since 0.1.0 */
export * as SsoGroup from "./ssogroups/Domain.js"

/** @since 0.1.0 */
export * as SsoGroups from "./ssogroups/SsoGroups.js"

/** @since 0.1.0 */
export * as SsoGroupsRepo from "./ssogroups/Repo.js"

// Teams, their members and roles

/** @since 0.1.0 */
export * as Team from "./teams/Domain.js"

/** @since 0.1.0 */
export * as TeamContent from "./teams/TeamContent.js"

/** @since 0.1.0 */
export * as TeamMembers from "./teams/TeamMembers.js"

/** @since 0.1.0 */
export * as TeamRoles from "./teams/TeamRoles.js"

/** @since 0.1.0 */
export * as Teams from "./teams/Teams.js"

/** @since 0.1.0 */
export * as TeamsRepo from "./teams/Repo.js"

// Ticket links: items linked to tickets in external trackers

/** @since 0.1.0 */
export * as TicketLink from "./ticketlinks/Domain.js"

/** @since 0.1.0 */
export * as TicketLinks from "./ticketlinks/TicketLinks.js"

/** @since 0.1.0 */
export * as TicketLinksRepo from "./ticketlinks/Repo.js"

// Usage group sets and groups: filters, attribution, budgets, imports

/** @since 0.1.0 */
export * as Attribution from "./usage/AttributionService.js"

/** @since 0.1.0 */
export * as BudgetAlerts from "./usage/BudgetAlerts.js"

/** @since 0.1.0 */
export * as Usage from "./usage/Domain.js"

/** @since 0.1.0 */
export * as UsageAttribution from "./usage/Attribution.js"

/** @since 0.1.0 */
export * as UsageBudget from "./usage/Budget.js"

/** @since 0.1.0 */
export * as UsageDimensions from "./usage/Dimensions.js"

/** @since 0.1.0 */
export * as UsageEditable from "./usage/Editable.js"

/** @since 0.1.0 */
export * as UsageFile from "./usage/UsageFile.js"

/** @since 0.1.0 */
export * as UsageFilter from "./usage/FilterExpression.js"

/** @since 0.1.0 */
export * as UsageGroups from "./usage/UsageGroups.js"

/** @since 0.1.0 */
export * as UsageImport from "./usage/UsageImport.js"

/** @since 0.1.0 */
export * as UsageMonth from "./usage/Month.js"

/** @since 0.1.0 */
export * as UsageRepo from "./usage/Repo.js"

// Warehouse knowledge that is pure data: sizes, thresholds, byte formatting

/** @since 0.1.0 */
export * as Bytes from "./warehouse/Bytes.js"

/** @since 0.1.0 */
export * as WarehouseSize from "./warehouse/WarehouseSize.js"

/** @since 0.1.0 */
export * as WarehouseThresholds from "./warehouse/Thresholds.js"
