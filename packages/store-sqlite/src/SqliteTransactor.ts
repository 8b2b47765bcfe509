/**
 * Write transactions on SQLite: `@effect/sql-sqlite-node` begins with a deferred `BEGIN`, which
 * fails with SQLITE_BUSY when two connections later upgrade to writing. Ours takes the process's
 * write lock, reserves the connection and runs `BEGIN IMMEDIATE`, so the database's write lock is
 * held from the first statement and waiting happens before anything was read.
 *
 * better-sqlite3 is synchronous: SQLite's own busy handler (`busy_timeout`) would sleep on the
 * event loop, stalling every request of the process. The connection has `busy_timeout = 0`, and a
 * `BEGIN IMMEDIATE` refused with SQLITE_BUSY is retried here after an asynchronous sleep (short,
 * growing, jittered), until the store's `busyTimeout` has passed. Between tries the connection is
 * released, so this process's reads go on meanwhile.
 */
import { StorePool, Transactor } from "@costline/core"
import { makeStoreErrors, makeTransactor, SqlDialect, UntracedTransaction } from "@costline/store-sql"
import { makeWithTransaction, SqlClient, TransactionConnection } from "@effect/sql/SqlClient"
import { SqlError } from "@effect/sql/SqlError"
import type { Connection } from "@effect/sql/SqlConnection"
import { Context, Duration, Effect, Exit, identity, Layer, Schedule, Scope } from "effect"
import type * as Lock from "./Lock.js"
import { isSqliteClient } from "./SqliteClient.js"
import { writeLockFor } from "./WriteLock.js"

// Prepared once and kept (a handful of texts): preparing BEGIN/SAVEPOINT/COMMIT afresh each time
// cost about as much as running them.
const run = UntracedTransaction.runOn

/** First pause after a refused BEGIN IMMEDIATE; doubled after each try. */
const FIRST_RETRY = Duration.millis(1)
/**
 * The longest pause between tries. A long import in another process leaves gaps of at least
 * `LOCK_GAP` between its transactions; polling more often than that is what lets us take one.
 */
export const LONGEST_RETRY = Duration.millis(10)

const codeOf = (error: SqlError): unknown => (error.cause as { readonly code?: unknown } | undefined)?.code

/** The lock is held by another connection (SQLITE_BUSY and its extended codes). */
export const isBusy = (error: SqlError): boolean => {
  const code = codeOf(error)
  return typeof code === "string" && /^SQLITE_BUSY(_|$)/.test(code)
}

/** Retries while busy, pauses growing from FIRST_RETRY to LONGEST_RETRY, for at most `deadline`. */
export const busyRetries = (deadline: Duration.Duration) =>
  Schedule.exponential(FIRST_RETRY).pipe(
    Schedule.union(Schedule.spaced(LONGEST_RETRY)),
    Schedule.jittered,
    Schedule.upTo(deadline)
  )

export const make = (filename: string, busyTimeout: Duration.Duration, writeLock: Lock.Lock = writeLockFor(filename)) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient
    const dialect = yield* SqlDialect
    // The store's own client reserves into a given scope; any other through the context.
    const reserveIn = isSqliteClient(sql)
      ? sql.reserveIn
      : (scope: Scope.Scope) => Scope.extend(sql.reserve, scope)

    /** The connection, inside `BEGIN IMMEDIATE`; on failure nothing is left held. */
    const begin = (scope: Scope.Scope) =>
      Effect.gen(function*() {
        const attempt = yield* Scope.make()
        return yield* reserveIn(attempt).pipe(
          Effect.tap((connection) => run(connection, "BEGIN IMMEDIATE")),
          Effect.onExit((exit) =>
            Exit.isFailure(exit)
              ? Scope.close(attempt, exit)
              : Scope.addFinalizer(scope, Scope.close(attempt, Exit.void))
          )
        )
      })

    const stillBusy = (error: SqlError) =>
      new SqlError({
        cause: error.cause,
        message: `another connection held the write lock for longer than ${Duration.format(busyTimeout)} (SQLITE_BUSY)`
      })

    // BEGIN IMMEDIATE is part of acquiring: if it fails there is no transaction to roll back.
    const acquireConnection = Effect.gen(function*() {
      const scope = yield* Scope.make()
      const connection = yield* writeLock.take(identity).pipe(
        Effect.zipRight(Scope.addFinalizer(scope, Effect.sync(writeLock.release))),
        Effect.zipRight(
          begin(scope).pipe(
            // The first try outside the schedule: a free lock (nearly always) builds no retry driver.
            Effect.catchIf(isBusy, () => Effect.retry(begin(scope), { schedule: busyRetries(busyTimeout), while: isBusy })),
            Effect.mapError((error) => (isBusy(error) ? stillBusy(error) : error))
          )
        ),
        Effect.onError((cause) => Scope.close(scope, Exit.failCause(cause)))
      )
      return [scope, connection] as const
    })

    const outermost = makeWithTransaction({
      transactionTag: TransactionConnection,
      spanAttributes: [["db.system.name", "sqlite"]],
      acquireConnection,
      begin: () => Effect.void,
      // Nested calls never reach `outermost`: UntracedTransaction runs them as savepoints.
      savepoint: (connection, id) => run(connection, `SAVEPOINT costline_${id}`),
      commit: (connection) => run(connection, "COMMIT"),
      rollback: (connection) => run(connection, "ROLLBACK"),
      rollbackSavepoint: (connection, id) => run(connection, `ROLLBACK TO SAVEPOINT costline_${id}`)
    })
    // The write lock and the connection taken in one synchronous step when both are free (nearly
    // always), and BEGIN IMMEDIATE run: no scope, no wait, no retry driver. A BEGIN refused
    // because another process writes gives them back, and `acquireConnection` waits and retries.
    const ifFree = isSqliteClient(sql)
      ? <X, R>(use: (connection: Connection) => Effect.Effect<X, never, R>) =>
        Effect.suspend(() => {
          if (!writeLock.tryTake()) return Effect.succeedNone
          const connection = sql.tryReserve()
          if (connection === undefined) {
            writeLock.release()
            return Effect.succeedNone
          }
          return Effect.ensuring(
            Effect.matchEffect(run(connection, "BEGIN IMMEDIATE"), {
              onFailure: (error) => (isBusy(error) ? Effect.succeedNone : Effect.fail(error)),
              onSuccess: () => Effect.asSome(use(connection))
            }),
            Effect.sync(() => {
              sql.unreserve()
              writeLock.release()
            })
          )
        })
      : undefined
    // With tracing off (the server's default), without `makeWithTransaction`'s span and context copies.
    const withTransaction = UntracedTransaction.make({ acquire: acquireConnection, ifFree, traced: outermost, releaseSavepoints: true })
    return makeTransactor(makeStoreErrors(dialect.classify), withTransaction)
  })

/** The Transactor, and core's `StorePool` read from its write lock: the one connection is "in use" while a transaction holds it. */
export const layer = (filename: string, busyTimeout: Duration.Duration) =>
  Layer.effectContext(Effect.gen(function*() {
    const writeLock = writeLockFor(filename)
    const transactor = yield* make(filename, busyTimeout, writeLock)
    const pool = StorePool.StorePool.of({
      usage: Effect.sync(() => {
        const inUse = writeLock.held ? 1 : 0
        return { inUse, idle: 1 - inUse, waiting: writeLock.waiting, max: 1 }
      })
    })
    return Context.make(Transactor.Transactor, transactor).pipe(Context.add(StorePool.StorePool, pool))
  }))
