/**
 * The one place where a SQL store is assembled: client → dialect → Transactor → migrations →
 * every core repository. Both stores call `makeStoreLayer` with their own parts.
 */
import {
  AuditRepo,
  Core,
  DwAccountsRepo,
  type Errors,
  IdentityRepo,
  InsightImportsRepo,
  InsightsRepo,
  Installation,
  KeyCheck,
  KeyedUsageRepo,
  type RateLimitRepo,
  RoleScope,
  SsoGroupsRepo,
  StoreHealth,
  TeamsRepo,
  TicketLinksRepo,
  type Transactor,
  UsageRepo
} from "@costline/core"
import type { SqlClient } from "@effect/sql/SqlClient"
import { Context, Effect, Layer } from "effect"
import type { MigrationFailed, Migrations } from "./Migrations.js"
import * as ApiKeysRepoSql from "./repos/ApiKeysRepo.js"
import * as AuditRepoSql from "./repos/AuditRepo.js"
import * as DwAccountsRepoSql from "./repos/DwAccountsRepo.js"
import * as InsightImportsRepoSql from "./repos/InsightImportsRepo.js"
import * as InsightsRepoSql from "./repos/InsightsRepo.js"
import * as InstallationRepoSql from "./repos/InstallationRepo.js"
import * as InvitationsRepoSql from "./repos/InvitationsRepo.js"
import * as KeyedUsageRepoSql from "./repos/KeyedUsageRepo.js"
import * as LinkableItemsRepoSql from "./repos/LinkableItemsRepo.js"
import * as OrganizationsRepoSql from "./repos/OrganizationsRepo.js"
import * as RoleAssignmentsRepoSql from "./repos/RoleAssignmentsRepo.js"
import * as ScopeDirectoryRepoSql from "./repos/ScopeDirectoryRepo.js"
import * as SecretKeyCheckRepoSql from "./repos/SecretKeyCheckRepo.js"
import * as SessionsRepoSql from "./repos/SessionsRepo.js"
import * as SsoGroupsRepoSql from "./repos/SsoGroupsRepo.js"
import * as TeamMembersRepoSql from "./repos/TeamMembersRepo.js"
import * as TeamsRepoSql from "./repos/TeamsRepo.js"
import * as TicketLinksRepoSql from "./repos/TicketLinksRepo.js"
import * as UsageGroupsRepoSql from "./repos/UsageGroupsRepo.js"
import * as UsageRecordsRepoSql from "./repos/UsageRecordsRepo.js"
import * as UsersRepoSql from "./repos/UsersRepo.js"
import type { SqlDialect } from "./SqlDialect.js"
import * as StoreHealthSql from "./StoreHealth.js"

/**
 * Every core repository on SQL, built by one effect: a layer per repository cost the memo map
 * ~110 interpreter steps each at every start (each repository's own `layer` remains for a host
 * that builds one alone).
 */
const repositories = Effect.succeed(Context.empty()).pipe(
  Core.addService(AuditRepo.AuditRepo, AuditRepoSql.make),
  Core.addService(Installation.InstallationRepo, InstallationRepoSql.make),
  Core.addService(IdentityRepo.OrganizationsRepo, OrganizationsRepoSql.make),
  Core.addService(IdentityRepo.UsersRepo, UsersRepoSql.make),
  Core.addService(IdentityRepo.ApiKeysRepo, ApiKeysRepoSql.make),
  Core.addService(IdentityRepo.SessionsRepo, SessionsRepoSql.make),
  Core.addService(IdentityRepo.RoleAssignmentsRepo, RoleAssignmentsRepoSql.make),
  Core.addService(TeamsRepo.TeamsRepo, TeamsRepoSql.make),
  Core.addService(TeamsRepo.TeamMembersRepo, TeamMembersRepoSql.make),
  Core.addService(SsoGroupsRepo.SsoGroupsRepo, SsoGroupsRepoSql.make),
  Core.addService(IdentityRepo.InvitationsRepo, InvitationsRepoSql.make),
  Core.addService(RoleScope.ScopeDirectory, ScopeDirectoryRepoSql.make),
  Core.addService(UsageRepo.UsageGroupsRepo, UsageGroupsRepoSql.make),
  Core.addService(UsageRepo.UsageRecordsRepo, UsageRecordsRepoSql.make),
  Core.addService(KeyedUsageRepo.KeyedUsageRepo, KeyedUsageRepoSql.make),
  Core.addService(TicketLinksRepo.TicketLinksRepo, TicketLinksRepoSql.make),
  Core.addService(TicketLinksRepo.LinkableItems, LinkableItemsRepoSql.make),
  Core.addService(DwAccountsRepo.DwAccountsRepo, DwAccountsRepoSql.make),
  Core.addService(KeyCheck.SecretKeyCheckRepo, SecretKeyCheckRepoSql.make)
).pipe(
  Core.addService(InsightsRepo.InsightsRepo, InsightsRepoSql.make),
  Core.addService(InsightImportsRepo.InsightImportsRepo, InsightImportsRepoSql.make)
)

/** Every core repository on SQL, given a client, the dialect and the store's Transactor. */
export const SqlRepositoriesLive = Layer.effectContext(repositories)

export interface StoreParts<E, Extra = never> {
  /** The connection(s); may provide more than the SqlClient (SQLite: core's CredentialChanges). */
  readonly client: Layer.Layer<SqlClient | Extra, E>
  readonly dialect: Layer.Layer<SqlDialect, never, SqlClient>
  readonly transactor: Layer.Layer<Transactor.Transactor, never, SqlClient | SqlDialect>
  /** Run while the layer is built; `undefined` when the caller migrates separately. */
  readonly migrate:
    | Effect.Effect<unknown, MigrationFailed | Errors.StoreUnavailable, SqlClient | SqlDialect | Transactor.Transactor>
    | undefined
  /** Every migration of the store, applied or not: readiness compares them with the applied ones. */
  readonly migrations: Migrations
  /** Rate-limit state: shared through the database (Postgres) or kept in this process (SQLite). */
  readonly rateLimits: Layer.Layer<RateLimitRepo.RateLimitRepo, never, SqlClient | SqlDialect>
}

/** A store: the repositories core needs, plus the SqlClient for callers that run their own SQL. */
export const makeStoreLayer = <E, Extra = never>(
  parts: StoreParts<E, Extra>
): Layer.Layer<Core.Repositories | SqlClient | Extra, E | MigrationFailed | Errors.StoreUnavailable> => {
  const foundation = parts.transactor.pipe(Layer.provideMerge(parts.dialect), Layer.provideMerge(parts.client))
  // Migrations first, then every repository and the health check, in one layer.
  const built = repositories.pipe(Core.addService(StoreHealth.StoreHealth, StoreHealthSql.make(parts.migrations)))
  const migratedRepositories = Layer.effectContext(parts.migrate === undefined ? built : Effect.zipRight(parts.migrate, built))
  return Layer.merge(migratedRepositories, parts.rateLimits).pipe(Layer.provideMerge(foundation))
}
