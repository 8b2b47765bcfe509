/** Warehouse accounts: domain, key validation and the storage contract. */
export * from "./Domain.js"
export * as PrivateKey from "./PrivateKey.js"
export * from "./Repo.js"
