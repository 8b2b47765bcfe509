/**
 * The one place where a SQL store is assembled: client → dialect → Transactor → migrations →
 * every core repository. Both stores call `makeStoreLayer` with their own parts.
 */
import type { Core, Errors, RateLimitRepo, Transactor } from "@costline/core"
import type { SqlClient } from "@effect/sql/SqlClient"
import { type Effect, Layer } from "effect"
import type { MigrationFailed, Migrations } from "./Migrations.js"
import * as ApiKeysRepo from "./repos/ApiKeysRepo.js"
import * as AuditRepo from "./repos/AuditRepo.js"
import * as DwAccountsRepo from "./repos/DwAccountsRepo.js"
import * as InsightImportsRepo from "./repos/InsightImportsRepo.js"
import * as InsightsRepo from "./repos/InsightsRepo.js"
import * as InstallationRepo from "./repos/InstallationRepo.js"
import * as InvitationsRepo from "./repos/InvitationsRepo.js"
import * as KeyedUsageRepo from "./repos/KeyedUsageRepo.js"
import * as LinkableItemsRepo from "./repos/LinkableItemsRepo.js"
import * as OrganizationsRepo from "./repos/OrganizationsRepo.js"
import * as RoleAssignmentsRepo from "./repos/RoleAssignmentsRepo.js"
import * as ScopeDirectoryRepo from "./repos/ScopeDirectoryRepo.js"
import * as SecretKeyCheckRepo from "./repos/SecretKeyCheckRepo.js"
import * as SessionsRepo from "./repos/SessionsRepo.js"
import * as SsoGroupsRepo from "./repos/SsoGroupsRepo.js"
import * as TeamMembersRepo from "./repos/TeamMembersRepo.js"
import * as TeamsRepo from "./repos/TeamsRepo.js"
import * as TicketLinksRepo from "./repos/TicketLinksRepo.js"
import * as UsageGroupsRepo from "./repos/UsageGroupsRepo.js"
import * as UsageRecordsRepo from "./repos/UsageRecordsRepo.js"
import * as UsersRepo from "./repos/UsersRepo.js"
import type { SqlDialect } from "./SqlDialect.js"
import * as StoreHealth from "./StoreHealth.js"

/** Every core repository on SQL, given a client, the dialect and the store's Transactor. */
export const SqlRepositoriesLive = Layer.mergeAll(
  AuditRepo.layer,
  InstallationRepo.layer,
  OrganizationsRepo.layer,
  UsersRepo.layer,
  ApiKeysRepo.layer,
  SessionsRepo.layer,
  RoleAssignmentsRepo.layer,
  TeamsRepo.layer,
  TeamMembersRepo.layer,
  SsoGroupsRepo.layer,
  InvitationsRepo.layer,
  ScopeDirectoryRepo.layer,
  UsageGroupsRepo.layer,
  UsageRecordsRepo.layer,
  KeyedUsageRepo.layer,
  TicketLinksRepo.layer,
  LinkableItemsRepo.layer,
  DwAccountsRepo.layer,
  SecretKeyCheckRepo.layer,
  InsightsRepo.layer,
  InsightImportsRepo.layer
)

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
  const migrated = parts.migrate === undefined ? Layer.empty : Layer.effectDiscard(parts.migrate)
  return Layer.mergeAll(SqlRepositoriesLive, StoreHealth.layer(parts.migrations), parts.rateLimits).pipe(
    Layer.provide(migrated),
    Layer.provideMerge(foundation)
  )
}
