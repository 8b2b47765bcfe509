/** Several server instances over one Postgres database: migrations, and what they share. */
import { Core } from "@costline/core"
import { expectPortablePageTokens } from "@costline/store-contract"
import { PgStore } from "@costline/store-pg"
import { SqlClient } from "@effect/sql/SqlClient"
import { expect, it } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { migrations } from "../src/migrations/index.js"
import { useFreshDatabase } from "./support/database.js"

const migrationRaceUrl = useFreshDatabase()
const sharedUrl = useFreshDatabase()

const open = (url: string) => Layer.build(Core.layer.pipe(Layer.provideMerge(PgStore.layer({ url, maxConnections: 2 }))))

it.live("four instances starting together on a new database all migrate successfully, each migration once", () =>
  Effect.gen(function*() {
    const instances = yield* Effect.all(Array.from({ length: 4 }, () => open(migrationRaceUrl)), {
      concurrency: "unbounded"
    })
    const applied = yield* Effect.flatMap(
      SqlClient,
      (sql) => sql<{ readonly migration_id: number }>`SELECT migration_id FROM costline_migrations ORDER BY migration_id`
    ).pipe(Effect.provide(instances[0]!))
    const everyMigration = Object.keys(migrations).map((name) => Number.parseInt(name, 10)).sort((a, b) => a - b)
    expect(applied.map((row) => row.migration_id)).toEqual(everyMigration)
  }).pipe(Effect.scoped))

it.live("every instance signs page tokens alike: a poller may resume on another instance", () =>
  Effect.gen(function*() {
    const [first, second] = yield* Effect.all([open(sharedUrl), open(sharedUrl)])
    yield* expectPortablePageTokens(first, second)
  }).pipe(Effect.scoped))
