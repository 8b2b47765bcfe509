/** Several connections ("processes") on one SQLite file: migrations, and what they share. */
import { Core } from "@costline/core"
import { expectPortablePageTokens } from "@costline/store-contract"
import { SqliteStore } from "@costline/store-sqlite"
import { SqlClient } from "@effect/sql/SqlClient"
import { expect, it } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { migrations } from "../src/migrations/index.js"
import { useTempDirectory } from "./support/tempDatabase.js"

const databaseFile = useTempDirectory()

const open = (filename: string, options: { readonly migrate?: boolean } = {}) =>
  Layer.build(Core.layer.pipe(Layer.provideMerge(SqliteStore.layer({ filename, ...options }))))

/** The ids of every migration this build carries, in order. */
const everyMigration = Object.keys(migrations).map((name) => Number.parseInt(name, 10)).sort((a, b) => a - b)

const appliedMigrations = Effect.flatMap(
  SqlClient,
  (sql) => sql<{ readonly migration_id: number }>`SELECT migration_id FROM costline_migrations ORDER BY migration_id`
).pipe(Effect.map((rows) => rows.map((row) => row.migration_id)))

it.live("two connections migrating a new file at the same time both succeed, and each migration runs once", () =>
  Effect.gen(function*() {
    const filename = databaseFile("migrate-together.db")
    const [first, second] = yield* Effect.all([open(filename), open(filename)], { concurrency: "unbounded" })
    expect(yield* Effect.provide(appliedMigrations, first)).toEqual(everyMigration)
    expect(yield* Effect.provide(appliedMigrations, second)).toEqual(everyMigration)
  }).pipe(Effect.scoped))

it.live("migrate: false leaves a new file untouched; the next default open migrates it", () =>
  Effect.gen(function*() {
    const filename = databaseFile("migrate-later.db")
    const unmigrated = yield* open(filename, { migrate: false })
    const tables = yield* Effect.flatMap(SqlClient, (sql) => sql`SELECT name FROM sqlite_master WHERE type = 'table'`).pipe(
      Effect.provide(unmigrated)
    )
    expect(tables).toEqual([])
    expect(yield* Effect.provide(appliedMigrations, yield* open(filename))).toEqual(everyMigration)
  }).pipe(Effect.scoped))

it.live("every connection to a file signs page tokens alike: a poller may resume on another", () =>
  Effect.gen(function*() {
    const filename = databaseFile("shared-secret.db")
    yield* expectPortablePageTokens(yield* open(filename), yield* open(filename))
  }).pipe(Effect.scoped))

it.live("opening a file whose schema is current does not wait for the write lock another process holds", () =>
  Effect.gen(function*() {
    const filename = databaseFile("current-schema.db")
    const holder = yield* open(filename)
    // Another process's write transaction (an import, say), held for the whole second open.
    yield* Effect.acquireRelease(
      Effect.flatMap(SqlClient, (sql) => sql.unsafe("BEGIN IMMEDIATE")).pipe(Effect.provide(holder)),
      () => Effect.flatMap(SqlClient, (sql) => sql.unsafe("ROLLBACK")).pipe(Effect.provide(holder), Effect.orDie)
    )
    const second = yield* Layer.build(
      Core.layer.pipe(Layer.provideMerge(SqliteStore.layer({ filename, busyTimeout: "50 millis" })))
    )
    expect(yield* Effect.provide(appliedMigrations, second)).toEqual(everyMigration)
  }).pipe(Effect.scoped))
