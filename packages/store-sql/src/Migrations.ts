/**
 * Runs a store's migrations with `@effect/sql`'s Migrator, one migrator at a time: the store
 * supplies `exclusively` (its write transaction, plus an advisory lock on Postgres), so a second
 * process starting at the same moment waits, then finds nothing left to do.
 */
import type { Errors } from "@costline/core"
import * as Migrator from "@effect/sql/Migrator"
import { SqlClient } from "@effect/sql/SqlClient"
import { Effect, Option, Schema } from "effect"
import { SqlDialect } from "./SqlDialect.js"
import { makeStoreErrors } from "./StoreErrors.js"

export class MigrationFailed extends Schema.TaggedError<MigrationFailed>()("MigrationFailed", {
  message: Schema.String
}) {}

/** Where applied migrations are recorded. */
export const MIGRATIONS_TABLE = "costline_migrations"

export type Migrations = Record<string, Effect.Effect<void, unknown, SqlClient>>

export type Exclusively = <A, E, R>(effect: Effect.Effect<A, E, R>) => Effect.Effect<A, E | Errors.StoreUnavailable, R>

// The file-system variants (SqliteMigrator, PgMigrator) only add a schema dump through CLI tools.
const migrator = Migrator.make({})

/** The highest migration id of `migrations` (keys `<id>_<name>`, as the Migrator reads them). */
const latestOf = (migrations: Migrations) =>
  Math.max(0, ...Object.keys(migrations).map((key) => Number(/^(\d+)_/.exec(key)?.[1] ?? 0)))

/**
 * Whether the database already records the latest migration: one read, without the write lock,
 * so that a start against a current schema (every start but the first after an upgrade) skips the
 * Migrator's locked transaction. Any failure (no table yet) means "not known to be current".
 */
const isCurrent = (migrations: Migrations) =>
  Effect.flatMap(SqlClient, (sql) =>
    sql<{ readonly latest: number | string | null }>`SELECT max(migration_id) AS latest FROM ${sql(MIGRATIONS_TABLE)}`.pipe(
      Effect.map(([row]) => row?.latest != null && Number(row.latest) >= latestOf(migrations)),
      Effect.orElseSucceed(() => false)
    ))

/** Applies the pending migrations; returns the ones this call applied, as `[id, name]`. */
export const runMigrations = (migrations: Migrations, exclusively: Exclusively) =>
  Effect.gen(function*() {
    if (yield* isCurrent(migrations)) return []
    const errors = makeStoreErrors((yield* SqlDialect).classify)
    const failed = (message: string) => new MigrationFailed({ message })
    return yield* exclusively(migrator({ loader: Migrator.fromRecord(migrations), table: MIGRATIONS_TABLE })).pipe(
      Effect.catchTag("MigrationError", (error) => Effect.fail(failed(error.message))),
      errors.orUnavailable,
      // The Migrator turns a failing migration into a defect; it is a failed migration.
      Effect.catchSomeDefect((defect) =>
        defect instanceof Migrator.MigrationError ? Option.some(Effect.fail(failed(defect.message))) : Option.none()
      )
    )
  })
