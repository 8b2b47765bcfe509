/**
 * The Postgres store: every core repository over a connection pool, migrated when the layer is
 * built. Any number of instances may share one database: each rule is one statement or one
 * transaction, and the audit cursor is safe under concurrent writers (see PgDialect).
 */
import { CredentialChanges, Errors, IdentityRepo, StorePool, Transactor } from "@costline/core"
import {
  makeStoreErrors,
  makeStoreLayer,
  makeTransactor,
  MIGRATIONS_TABLE,
  runMigrations,
  SqlDialect,
  StatementRunner,
  UntracedTransaction
} from "@costline/store-sql"
import { PgClient } from "@effect/sql-pg"
import { SqlClient } from "@effect/sql/SqlClient"
import type { Connection } from "@effect/sql/SqlConnection"
import { SqlError } from "@effect/sql/SqlError"
import { Context, Duration, Effect, Exit, Layer, Option, Redacted, Scope } from "effect"
import { randomUUID } from "node:crypto"
import pg from "pg"
import { withStatementTimeout } from "./ConnectionUrl.js"
import * as CredentialWatch from "./CredentialWatch.js"
import { migrations } from "./migrations/index.js"
import * as PgDialect from "./PgDialect.js"
import * as PgRateLimits from "./PgRateLimits.js"
import * as PreparedStatements from "./PreparedStatements.js"
import * as Timestamps from "./Timestamps.js"

export interface PgStoreOptions {
  /** `postgres://user:password@host:port/database` */
  readonly url: string | Redacted.Redacted<string>
  /** Apply pending migrations while the layer is built (default `true`). */
  readonly migrate?: boolean | undefined
  /** Pool size (default 10). */
  readonly maxConnections?: number | undefined
  /** Longest a statement may run before Postgres cancels it (default 30 seconds). */
  readonly statementTimeout?: Duration.DurationInput | undefined
  /** Longest to wait for a connection (default 5 seconds). */
  readonly connectTimeout?: Duration.DurationInput | undefined
  /**
   * Keep verified API keys in memory (default `true`): one more connection per instance `LISTEN`s
   * for credential changes (see CredentialWatch). `false` behind a pooler that cannot `LISTEN`
   * (pgbouncer in transaction mode): every request then reads its key.
   */
  readonly verifiedKeyCache?: boolean | undefined
  /**
   * Send queries with parameters as named statements, parsed and planned once per connection
   * (default `true`; see PreparedStatements). `false` behind a pooler that moves a session's
   * statements between server connections (pgbouncer in transaction mode, before 1.21).
   */
  readonly preparedStatements?: boolean | undefined
}

const DEFAULT_MAX_CONNECTIONS = 10

/** Any constant: it names the lock that serialises migrators across processes. */
const MIGRATION_LOCK = 7_361_204_518

// Messages never echo the URL (it carries the password); node-postgres's own reasons do not.
const reason = (cause: unknown) => (cause instanceof Error ? cause.message : "no reason given")

/**
 * This instance's connections carry their own `application_name` (`costline/<instance>`), so that
 * `StorePool` can count them in `pg_stat_activity`: @effect/sql-pg keeps its pg.Pool private.
 */
const client = (options: PgStoreOptions, applicationName: string) => {
  const url = typeof options.url === "string" ? options.url : Redacted.value(options.url)
  const statementTimeout = Duration.toMillis(options.statementTimeout ?? Duration.seconds(30))
  const connectTimeout = Duration.decode(options.connectTimeout ?? Duration.seconds(5))
  return Option.match(withStatementTimeout(url, statementTimeout), {
    onNone: () => Layer.fail(new Errors.StoreUnavailable({ message: "the Postgres connection URL is not a valid URL" })),
    onSome: (connectionString) =>
      PgClient.layerFromPool({
        // The pool as `PgClient.layer` makes it, with the store's own client class (named statements).
        acquire: Effect.acquireRelease(
          Effect.sync(() => {
            const pool = new pg.Pool({
              connectionString,
              connectionTimeoutMillis: Duration.toMillis(connectTimeout),
              max: options.maxConnections ?? DEFAULT_MAX_CONNECTIONS,
              application_name: applicationName,
              types: Timestamps.types,
              ...(options.preparedStatements === false ? {} : { Client: PreparedStatements.namingClient() })
            })
            // A dropped idle connection is the pool's to replace; a query on it fails on its own.
            pool.on("error", () => {})
            return pool
          }),
          (pool) => Effect.promise(() => pool.end()).pipe(Effect.interruptible, Effect.timeoutOption(1000))
        ).pipe(
          Effect.tap((pool) =>
            Effect.tryPromise({ try: () => pool.query("SELECT 1"), catch: (cause) => new SqlError({ cause, message: "PgClient: Failed to connect" }) }).pipe(
              Effect.timeoutFail({
                duration: connectTimeout,
                onTimeout: () => new SqlError({ cause: new Error("Connection timed out"), message: "PgClient: Connection timed out" })
              })
            )
          )
        ),
        applicationName
      }).pipe(Layer.mapError((error) => new Errors.StoreUnavailable({ message: `cannot connect to Postgres: ${reason(error.cause)}` })))
  })
}

/**
 * The client's READ COMMITTED transaction; with tracing off (the server's default) without
 * `@effect/sql`'s span and copies of the request's context (store-sql's `UntracedTransaction`):
 * a pooled connection reserved into a scope of its own, then BEGIN.
 */
const transactor = Layer.effect(
  Transactor.Transactor,
  Effect.gen(function*() {
    const sql = yield* SqlClient
    const dialect = yield* SqlDialect
    const acquire = Effect.gen(function*() {
      const scope = yield* Scope.make()
      // The pool's reservation reads its scope from the context: layered over it, not merged in.
      const reserved = UntracedTransaction.withEntries(sql.reserve, [[Scope.Scope, scope]]) as Effect.Effect<Connection, SqlError>
      const connection = yield* reserved.pipe(
        Effect.tap((connection) => UntracedTransaction.runOn(connection, "BEGIN")),
        Effect.onError((cause) => Scope.close(scope, Exit.failCause(cause)))
      )
      return [scope, connection] as const
    })
    return makeTransactor(
      makeStoreErrors(dialect.classify),
      UntracedTransaction.make({ acquire, traced: sql.withTransaction, releaseSavepoints: false })
    )
  })
)

/**
 * Applies pending migrations; returns those this call applied. The Migrator locks its table, but
 * creating that table races on a fresh database, so the whole run is one transaction behind an
 * advisory lock, with the table created (if missing) under it. An instance that waits for the
 * lock longer than `statementTimeout` gives up with StoreUnavailable.
 */
const migrate = Effect.gen(function*() {
  const sql = yield* SqlClient
  const tx = yield* Transactor.Transactor
  const errors = makeStoreErrors((yield* SqlDialect).classify)
  const lockAndPrepare = Effect.all([
    sql`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK})`,
    sql`CREATE TABLE IF NOT EXISTS ${sql(MIGRATIONS_TABLE)} (
          migration_id integer PRIMARY KEY,
          created_at timestamptz NOT NULL DEFAULT now(),
          name text NOT NULL
        )`
  ]).pipe(errors.orUnavailable)
  return yield* runMigrations(migrations, (run) => tx.withTransaction(Effect.zipRight(lockAndPrepare, run)))
})

/**
 * core's `StorePool`, sampled from `pg_stat_activity`: this instance's connections busy (active or
 * in a transaction) and idle, the scrape's own counted as idle (it returns to the pool at once).
 * Callers waiting for a connection are not visible there.
 */
const pool = (applicationName: string, max: number) =>
  Layer.effect(
    StorePool.StorePool,
    Effect.map(SqlClient, (sql) =>
      StorePool.StorePool.of({
        usage: sql<{ readonly busy: number | string; readonly idle: number | string }>`
          SELECT count(*) FILTER (WHERE state <> 'idle') AS busy, count(*) FILTER (WHERE state = 'idle') AS idle
          FROM pg_stat_activity WHERE application_name = ${applicationName} AND pid <> pg_backend_pid()`.pipe(
          Effect.map(([row]) => ({ inUse: Number(row?.busy ?? 0), idle: Number(row?.idle ?? 0) + 1, waiting: undefined, max })),
          Effect.timeout(Duration.seconds(2)),
          Effect.orElseSucceed(() => undefined)
        )
      }))
  )

/**
 * core's `CredentialChanges`, from a connection of its own, named apart from the pool's (StorePool
 * counts those); and the `ApiKeysRepo` whose revocations move the stamp at once in this instance.
 */
const credentialChanges = (options: PgStoreOptions, applicationName: string) =>
  Layer.scopedContext(Effect.gen(function*() {
    const watch = yield* CredentialWatch.make({
      url: typeof options.url === "string" ? options.url : Redacted.value(options.url),
      applicationName: `${applicationName}/credentials`,
      connectTimeout: Duration.decode(options.connectTimeout ?? Duration.seconds(5))
    })
    const repo = yield* IdentityRepo.ApiKeysRepo
    const apiKeys = IdentityRepo.ApiKeysRepo.of({
      ...repo,
      revoke: (organizationId, id, at) => Effect.ensuring(repo.revoke(organizationId, id, at), Effect.sync(watch.changed))
    })
    return Context.make(CredentialChanges.CredentialChanges, CredentialChanges.CredentialChanges.of({ stamp: watch.stamp })).pipe(Context.add(IdentityRepo.ApiKeysRepo, apiKeys))
  }))

/** Provides core's `Repositories`, the `SqlClient`, `StorePool` and (unless turned off) `CredentialChanges`. */
export const layer = (options: PgStoreOptions) => {
  const applicationName = `costline/${randomUUID().slice(0, 8)}`
  const connection = client(options, applicationName)
  const store = makeStoreLayer({
    // @effect/sql-pg's connection outside a transaction is the pool's (a client per query): no scope.
    client: Layer.merge(connection, Layer.succeed(StatementRunner.StatementRunner, { run: StatementRunner.unscoped })),
    dialect: PgDialect.layer,
    transactor,
    migrate: options.migrate === false ? undefined : migrate,
    migrations,
    rateLimits: PgRateLimits.layer
  })
  // The same layer value as the store's client: built once, one pool.
  const storeAndPool = Layer.merge(store, pool(applicationName, options.maxConnections ?? DEFAULT_MAX_CONNECTIONS).pipe(Layer.provide(connection)))
  if (options.verifiedKeyCache === false) return storeAndPool
  // Watching starts once the store is up (migrated: the notifying trigger exists).
  return Layer.provideMerge(credentialChanges(options, applicationName), storeAndPool)
}
