/**
 * core's `StoreHealth` for a SQL store: one query on the migrations table, compared with the
 * migrations this build carries.
 */
import { Errors, StoreHealth } from "@costline/core"
import { SqlClient } from "@effect/sql/SqlClient"
import { Effect, Layer } from "effect"
import { MIGRATIONS_TABLE, type Migrations } from "./Migrations.js"
import { SqlDialect } from "./SqlDialect.js"

/** `0600_rate_limits` → 600, as the Migrator numbers them. */
const idOf = (name: string): number => Number.parseInt(name, 10)

export const make = (migrations: Migrations) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient
    const { classify } = yield* SqlDialect
    const applied = sql<{ readonly migration_id: number | string; readonly name: string; readonly created_at: Date | string }>`
      SELECT migration_id, name, created_at FROM ${sql(MIGRATIONS_TABLE)} ORDER BY migration_id`.pipe(
      Effect.catchAll((error) =>
        classify(error) === "unavailable"
          ? Effect.fail(new Errors.StoreUnavailable({ message: "the store is unavailable" }))
          // Any other failure means the table is not there yet: nothing is applied.
          : Effect.succeed([])
      )
    )
    return StoreHealth.StoreHealth.of({
      check: Effect.map(applied, (rows) => {
        const ids = new Set(rows.map((row) => Number(row.migration_id)))
        return {
          store: sql.onDialectOrElse({ pg: () => "postgres", sqlite: () => "sqlite", orElse: () => "sql" }),
          pendingMigrations: Object.keys(migrations).filter((name) => !ids.has(idOf(name))).sort(),
          appliedMigrations: rows.map((row) => ({
            name: `${String(row.migration_id).padStart(4, "0")}_${row.name}`,
            appliedAt: row.created_at instanceof Date ? row.created_at.toISOString() : String(row.created_at)
          }))
        }
      })
    })
  })

export const layer = (migrations: Migrations): Layer.Layer<StoreHealth.StoreHealth, never, SqlClient | SqlDialect> =>
  Layer.effect(StoreHealth.StoreHealth, make(migrations))
