/** Health of the process's dependencies, for readiness probes. */
export { isReady, StoreHealth, type StoreStatus } from "./StoreHealth.js"
export * from "./StorePool.js"
