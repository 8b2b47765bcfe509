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
import { LayeredMap, StorePool, Transactor } from "@costline/core"
import { makeStoreErrors, makeTransactor, SqlDialect } from "@costline/store-sql"
import { makeWithTransaction, SqlClient, TransactionConnection } from "@effect/sql/SqlClient"
import type { Connection } from "@effect/sql/SqlConnection"
import { SqlError } from "@effect/sql/SqlError"
import { Context, Duration, Effect, Exit, FiberRef, Layer, Option, Schedule, Scope } from "effect"
import { isSqliteClient } from "./SqliteClient.js"
import * as WriteLock from "./WriteLock.js"
import { writeLockFor } from "./WriteLock.js"

// Prepared once and kept (a handful of texts): preparing BEGIN/SAVEPOINT/COMMIT afresh each time
// cost about as much as running them.
const run = (connection: Connection, statement: string) => connection.execute(statement, [], undefined)

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

/**
 * A nested transaction as a savepoint that is RELEASEd when it succeeds. `@effect/sql` leaves
 * every successful savepoint open until COMMIT, and SQLite's cost per write grows with the number
 * of open savepoints: an import of n upserts in one transaction took O(n²). Its depth is layered
 * over the caller's context (`LayeredMap.layeredContext`), not a copy of it.
 */
const savepoint = <A, E, R>(connection: Connection, depth: number, effect: Effect.Effect<A, E, R>) =>
  Effect.uninterruptibleMask((restore) => {
    const name = `costline_${depth}`
    return run(connection, `SAVEPOINT ${name}`).pipe(
      Effect.zipRight(Effect.withFiberRuntime<Exit.Exit<A, E>, never, R>((fiber) =>
        Effect.exit(Effect.locally(
          restore(effect),
          FiberRef.currentContext,
          LayeredMap.layeredContext(fiber.currentContext, [[TransactionConnection, [connection, depth]]])
        ))
      )),
      Effect.flatMap((exit) =>
        Effect.orDie(
          Exit.isSuccess(exit)
            ? run(connection, `RELEASE SAVEPOINT ${name}`)
            : Effect.zipRight(run(connection, `ROLLBACK TO SAVEPOINT ${name}`), run(connection, `RELEASE SAVEPOINT ${name}`))
        ).pipe(Effect.zipRight(exit))
      )
    )
  })

export const make = (filename: string, busyTimeout: Duration.Duration, writeLock: Effect.Semaphore = writeLockFor(filename)) =>
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
      const connection = yield* WriteLock.acquire(writeLock).pipe(
        Effect.flatMap((release) => Scope.addFinalizer(scope, release)),
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
      // Nested calls never reach `outermost`: `savepoint` above handles them.
      savepoint: (connection, id) => run(connection, `SAVEPOINT costline_${id}`),
      commit: (connection) => run(connection, "COMMIT"),
      rollback: (connection) => run(connection, "ROLLBACK"),
      rollbackSavepoint: (connection, id) => run(connection, `ROLLBACK TO SAVEPOINT costline_${id}`)
    })
    /**
     * `outermost` without its span, for a runtime whose tracing is off (the server's default):
     * the same BEGIN, COMMIT or ROLLBACK and release, with the connection layered over the
     * caller's context (`LayeredMap.layeredContext`) where `makeWithTransaction` copies the whole
     * context twice (~30 KB per write request) and opens a span that nothing records.
     */
    const untraced = <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E | SqlError, R> =>
      Effect.uninterruptibleMask((restore) =>
        Effect.flatMap(acquireConnection, ([scope, connection]) =>
          Effect.withFiberRuntime<Exit.Exit<A, E>, never, R>((fiber) =>
            Effect.exit(Effect.locally(
              restore(effect),
              FiberRef.currentContext,
              LayeredMap.layeredContext(fiber.currentContext, [[TransactionConnection, [connection, 0]]])
            ))
          ).pipe(
            Effect.flatMap((exit) =>
              Effect.orDie(run(connection, Exit.isSuccess(exit) ? "COMMIT" : "ROLLBACK")).pipe(
                Effect.ensuring(Scope.close(scope, exit)),
                Effect.zipRight(exit)
              )
            )
          )
        )
      )
    const withTransaction = <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E | SqlError, R> =>
      Effect.withFiberRuntime((fiber) => {
        const outer = Context.getOption(fiber.currentContext, TransactionConnection)
        if (Option.isSome(outer)) return savepoint(outer.value[0], outer.value[1] + 1, effect)
        return fiber.getFiberRef(FiberRef.currentTracerEnabled) ? outermost(effect) : untraced(effect)
      })
    return makeTransactor(makeStoreErrors(dialect.classify), withTransaction)
  })

/** The Transactor, and core's `StorePool` read from its write lock: the one connection is "in use" while a transaction holds it. */
export const layer = (filename: string, busyTimeout: Duration.Duration) =>
  Layer.effectContext(Effect.gen(function*() {
    const writeLock = writeLockFor(filename)
    const transactor = yield* make(filename, busyTimeout, writeLock)
    const usage = WriteLock.usageOf(writeLock)
    const pool = StorePool.StorePool.of({
      usage: Effect.sync(() => ({ inUse: usage.held, idle: 1 - usage.held, waiting: usage.waiting, max: 1 }))
    })
    return Context.make(Transactor.Transactor, transactor).pipe(Context.add(StorePool.StorePool, pool))
  }))
