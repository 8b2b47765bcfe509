/** @costline/store-sqlite: the embedded SQLite store. `SqliteStore.layer({ filename })` provides core's repositories. */
export * as SqliteStore from "./SqliteStore.js"
export type { SqliteStoreOptions } from "./SqliteStore.js"
export { MigrationFailed } from "@costline/store-sql"
