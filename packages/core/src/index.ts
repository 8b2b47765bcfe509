export * as ApiToken from "./identity/ApiToken.js"
export * as AuditCursor from "./audit/AuditCursor.js"
export * as Permissions from "./identity/Permissions.js"

export * from "./shared/Actor.js"
export * from "./shared/Errors.js"
export * from "./shared/Ids.js"
export * from "./shared/Pagination.js"
export * from "./shared/Transactor.js"

export * from "./audit/Domain.js"
export * from "./audit/Repo.js"
export { AuditLog, type ExportQuery } from "./audit/AuditLog.js"

export * from "./identity/Domain.js"
export * from "./identity/RoleAssignment.js"
export * from "./identity/Repo.js"
export { ApiKeys, type CreateApiKey } from "./identity/ApiKeys.js"
export { Auth } from "./identity/Auth.js"
export { actorOf, Authorization } from "./identity/Authorization.js"
export { Organizations } from "./identity/Organizations.js"
export { DEFAULT_SESSION_TTL, Sessions } from "./identity/Sessions.js"
export { normalizeEmail, Users } from "./identity/Users.js"

export * from "./teams/Domain.js"
export * from "./teams/Repo.js"
export { teamValues, Teams } from "./teams/Teams.js"

export { CoreLive, type Repositories } from "./Layers.js"

export * from "./dwaccounts/index.js"
export * from "./secrets/index.js"
export * from "./usage/index.js"
