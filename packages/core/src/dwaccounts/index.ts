/** Warehouse accounts: domain, key validation, the service and the storage contract. */
export * from "./Domain.js"
export * as DwAccountChange from "./Change.js"
export { DwAccounts, type UpdateError as DwAccountUpdateError } from "./DwAccounts.js"
export * as PrivateKey from "./PrivateKey.js"
export * from "./Repo.js"
