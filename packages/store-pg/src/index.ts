/** @costline/store-pg: the Postgres store. `PgStore.layer({ url })` provides core's repositories. */
export * as PgStore from "./PgStore.js"
export type { PgStoreOptions } from "./PgStore.js"
export { MigrationFailed } from "@costline/store-sql"
