/** `costline migrate [status]`: apply pending migrations, or show which are applied and pending. */
import { Command } from "@effect/cli"
import { StoreHealth } from "@costline/core"
import { Console, Effect, Layer } from "effect"
import { describeDatabase, storeLayer } from "../Database.js"
import { database, json, resolveDatabase } from "../Options.js"

const status = Command.make("status", { database, json }, (args) =>
  Effect.gen(function*() {
    const db = yield* resolveDatabase(args.database)
    // Read-only: opening the store without migrating it, so status never changes the schema.
    const report = yield* Effect.flatMap(StoreHealth.StoreHealth, (health) => health.check).pipe(
      Effect.provide(Layer.fresh(storeLayer(db, { migrate: false })))
    )
    if (args.json) {
      return yield* Console.log(JSON.stringify({ database: describeDatabase(db), applied: report.appliedMigrations, pending: report.pendingMigrations }))
    }
    yield* Console.log(`database ${describeDatabase(db)}`)
    for (const migration of report.appliedMigrations) yield* Console.log(`applied  ${migration.name}  ${migration.appliedAt}`)
    for (const name of report.pendingMigrations) yield* Console.log(`pending  ${name}`)
    yield* Console.log(
      report.pendingMigrations.length === 0
        ? "up to date"
        : `${report.pendingMigrations.length} pending: run costline migrate`
    )
  })).pipe(Command.withDescription("list applied and pending migrations without applying any"))

export const migrate = Command.make("migrate", { database }, ({ database }) =>
  Effect.gen(function*() {
    const db = yield* resolveDatabase(database)
    // Building the store layer applies pending migrations (safe while another process does too).
    yield* Layer.build(storeLayer(db, { migrate: true })).pipe(Effect.scoped)
    yield* Console.log(`migrations applied (${describeDatabase(db)})`)
  })).pipe(
    Command.withDescription("apply pending database migrations"),
    Command.withSubcommands([status])
  )
