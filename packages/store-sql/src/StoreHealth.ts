/**
 * core's `StoreHealth` for a SQL store: one query on the migrations table, compared with the
 * migrations this build carries.
 */
import { StoreHealth, StoreUnavailable } from "@costline/core"
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
    const applied = sql<{ readonly migration_id: number | string }>`SELECT migration_id FROM ${sql(MIGRATIONS_TABLE)}`.pipe(
      Effect.map((rows) => new Set(rows.map((row) => Number(row.migration_id)))),
      Effect.catchAll((error) =>
        classify(error) === "unavailable"
          ? Effect.fail(new StoreUnavailable({ message: "the store is unavailable" }))
          // Any other failure means the table is not there yet: nothing is applied.
          : Effect.succeed(new Set<number>())
      )
    )
    return StoreHealth.of({
      check: Effect.map(applied, (ids) => ({
        pendingMigrations: Object.keys(migrations).filter((name) => !ids.has(idOf(name))).sort()
      }))
    })
  })

export const layer = (migrations: Migrations): Layer.Layer<StoreHealth, never, SqlClient | SqlDialect> =>
  Layer.effect(StoreHealth, make(migrations))
