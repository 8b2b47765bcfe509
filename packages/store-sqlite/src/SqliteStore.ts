/**
 * The embedded store: every core repository over one SQLite file (or `:memory:`), migrated when
 * the layer is built. Safe to share a file between processes (a server and the CLI): WAL lets
 * readers run beside the single writer, writers take the lock with BEGIN IMMEDIATE and wait up to
 * `busyTimeout` for one another, asynchronously (see SqliteTransactor): the connection itself
 * never waits (`busy_timeout = 0`), so a busy lock never blocks the event loop.
 */
import { CredentialChanges, Errors, RateLimitRepo, Transactor } from "@costline/core"
import { makeStoreErrors, makeStoreLayer, runMigrations, StatementRunner } from "@costline/store-sql"
import { SqlClient } from "@effect/sql/SqlClient"
import * as Reactivity from "@effect/experimental/Reactivity"
import { Context, Duration, Effect, Layer } from "effect"
import * as DatabaseFile from "./DatabaseFile.js"
import { migrations } from "./migrations/index.js"
import * as SqliteClient from "./SqliteClient.js"
import * as SqliteDialect from "./SqliteDialect.js"
import * as SqliteTransactor from "./SqliteTransactor.js"

export interface SqliteStoreOptions {
  /** A file path, or `:memory:` for a private in-memory database. */
  readonly filename: string
  /** Apply pending migrations while the layer is built (default `true`). */
  readonly migrate?: boolean | undefined
  /** How long a write transaction waits for another process's write lock (default 5 seconds). */
  readonly busyTimeout?: Duration.DurationInput | undefined
}

const DEFAULT_BUSY_TIMEOUT = Duration.seconds(5)

/** The connection, opened with the settings every statement relies on. */
const client = (options: SqliteStoreOptions) =>
  Layer.scopedContext(
    Effect.gen(function*() {
      // better-sqlite3 throws from its constructor (missing directory, not a database, ...).
      const sql = yield* Effect.sync(() => DatabaseFile.createPrivately(options.filename)).pipe(
        Effect.zipRight(SqliteClient.make({ filename: options.filename })),
        Effect.catchAllDefect((defect) =>
          Effect.fail(
            new Errors.StoreUnavailable({ message: `cannot open SQLite database ${options.filename}: ${String(defect)}` })
          )
        )
      )
      // SQLite's busy handler sleeps on the event loop; the Transactor waits for the lock instead.
      yield* Effect.forEach(["PRAGMA busy_timeout = 0", "PRAGMA foreign_keys = ON"], (pragma) =>
        sql.unsafe(pragma)).pipe(makeStoreErrors(SqliteDialect.classify).orUnavailable)
      // Verified API keys are reused while nothing was committed to the file (core's Auth).
      // Reads run straight on the connection while tracing is off (store-sql's StatementRunner).
      return Context.make(SqlClient, sql).pipe(
        Context.add(CredentialChanges.CredentialChanges, CredentialChanges.CredentialChanges.of({ stamp: sql.changeStamp })),
        Context.add(StatementRunner.StatementRunner, { run: StatementRunner.unscoped })
      )
    })
  ).pipe(Layer.provide(Reactivity.layer))

/** Applies pending migrations, one process at a time; returns those this call applied. */
const migrate = Effect.flatMap(Transactor.Transactor, (transactor) => runMigrations(migrations, transactor.withTransaction))

/** Provides core's `Repositories` and the `SqlClient`. */
export const layer = (options: SqliteStoreOptions) =>
  makeStoreLayer({
    client: client(options),
    dialect: SqliteDialect.layer,
    transactor: SqliteTransactor.layer(options.filename, Duration.decode(options.busyTimeout ?? DEFAULT_BUSY_TIMEOUT)),
    migrate: options.migrate === false ? undefined : migrate,
    migrations,
    // One process serves HTTP over a SQLite file, so its budgets live in memory.
    rateLimits: RateLimitRepo.layerMemory
  })
