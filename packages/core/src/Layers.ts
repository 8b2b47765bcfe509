/**
 * The one place where core's services are composed. A store provides the repositories and the
 * Transactor (see `Repositories`); `CoreLive` builds every service on top of them.
 */
import { Layer } from "effect"
import * as AuditLog from "./audit/AuditLog.js"
import type { AuditRepo, InstallationRepo } from "./audit/Repo.js"
import * as ApiKeys from "./identity/ApiKeys.js"
import * as Auth from "./identity/Auth.js"
import * as Authorization from "./identity/Authorization.js"
import * as Organizations from "./identity/Organizations.js"
import type { ApiKeysRepo, OrganizationsRepo, RoleAssignmentsRepo, SessionsRepo, UsersRepo } from "./identity/Repo.js"
import * as Sessions from "./identity/Sessions.js"
import * as Users from "./identity/Users.js"
import type { Transactor } from "./shared/Transactor.js"
import type { TeamsRepo } from "./teams/Repo.js"
import * as Teams from "./teams/Teams.js"

/** Everything a store must provide. */
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

const AuditLive = AuditLog.layer
const OrganizationsLive = Organizations.layer.pipe(Layer.provide(AuditLive))
const UsersLive = Users.layer.pipe(Layer.provide(OrganizationsLive), Layer.provide(AuditLive))

/** Every core service, given the repositories of a store. */
export const CoreLive = Layer.mergeAll(
  AuditLive,
  OrganizationsLive,
  UsersLive,
  ApiKeys.layer.pipe(Layer.provide(OrganizationsLive), Layer.provide(AuditLive)),
  Sessions.layer.pipe(Layer.provide(UsersLive), Layer.provide(AuditLive)),
  Auth.layer,
  Authorization.layer.pipe(Layer.provide(AuditLive)),
  Teams.layer.pipe(Layer.provide(AuditLive))
)
