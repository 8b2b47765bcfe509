/** Warehouse accounts: domain, key validation, the service and the storage contract. */
export * from "./Domain.js"
export * as DwAccountChange from "./Change.js"
export { DwAccounts, type UpdateError as DwAccountUpdateError } from "./DwAccounts.js"
/** The service's layer on its own, for store tests that swap its Secrets (@costline/store-contract). */
export * as DwAccountsService from "./DwAccounts.js"
export * as PrivateKey from "./PrivateKey.js"
export * from "./Repo.js"
