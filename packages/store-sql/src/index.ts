/**
 * @costline/store-sql: core's repositories implemented once on `@effect/sql`, shared by
 * @costline/store-sqlite and @costline/store-pg, which supply a `SqlDialect`, a Transactor and
 * their migrations.
 */
export * as CivilTime from "./CivilTime.js"
export * as Columns from "./Columns.js"
export { makeStoreLayer, SqlRepositoriesLive, type StoreParts } from "./Layers.js"
export { type Exclusively, MigrationFailed, type Migrations, MIGRATIONS_TABLE, runMigrations } from "./Migrations.js"
export * as StatementRunner from "./StatementRunner.js"
export { type AuditOrdering, SqlDialect, type SqlFailure, type SqlValue } from "./SqlDialect.js"
export { type Classify, makeStoreErrors, type StoreErrors } from "./StoreErrors.js"
export { makeTransactor, type WithTransaction } from "./Transactor.js"
export * as UntracedTransaction from "./UntracedTransaction.js"
