/// <reference path="./better-sqlite3.d.ts" />
/**
 * The store's `SqlClient` over one better-sqlite3 connection: `@effect/sql-sqlite-node`'s client
 * with two costs of every statement taken out (issue 19).
 *
 * - **No lock hop while the connection is free.** better-sqlite3 runs a statement
 *   synchronously, so a statement outside a transaction cannot interleave with another one; the
 *   connection only needs guarding while a transaction holds it (between its BEGIN and its
 *   COMMIT, statements of other fibers would otherwise run inside it). `reserve` (the transaction's
 *   acquirer) takes the connection's lock *before* BEGIN runs; a statement outside the
 *   transaction checks the lock and runs at once, or waits for it, in the same synchronous step as
 *   its execution, so none slips in between.
 * - **Prepared statements in a `Map`** (least recently used evicted past `CACHE_SIZE`) instead of
 *   an `effect/Cache` lookup (fibers, deferreds and a clock read per statement).
 * - **Its acquirer outside a transaction needs no scope** (the connection is always at hand), so
 *   reads can run through store-sql's `StatementRunner.unscoped`.
 *
 * Waiting for *another process's* write lock is not done here: the connection never waits
 * (`busy_timeout = 0`) and SqliteTransactor retries BEGIN IMMEDIATE asynchronously.
 */
import * as Reactivity from "@effect/experimental/Reactivity"
import * as Client from "@effect/sql/SqlClient"
import type { Connection } from "@effect/sql/SqlConnection"
import { SqlError } from "@effect/sql/SqlError"
import * as Statement from "@effect/sql/Statement"
import Sqlite from "better-sqlite3"
import { Context, Effect, Scope, Stream } from "effect"
import { mayChangeCredentials } from "./CredentialWrites.js"
import * as Lock from "./Lock.js"

/** Distinct statement texts kept prepared (as `@effect/sql-sqlite-node`'s default). */
export const CACHE_SIZE = 200

/** Prepared statements by text, least recently used first. */
const preparedStatements = (db: Sqlite, capacity: number) => {
  const statements = new Map<string, Sqlite.Statement>()
  return (sql: string): Sqlite.Statement => {
    const cached = statements.get(sql)
    if (cached !== undefined) {
      // Move to the back: Map iterates in insertion order.
      statements.delete(sql)
      statements.set(sql, cached)
      return cached
    }
    const prepared = db.prepare(sql)
    if (statements.size >= capacity) statements.delete(statements.keys().next().value!)
    statements.set(sql, prepared)
    return prepared
  }
}

const failed = (cause: unknown, message: string) => new SqlError({ cause, message })

/**
 * The raw connection: every method runs its statement right away, on whatever fiber asks.
 * `wrote` is called after every statement that writes (an `UPDATE … RETURNING` included; BEGIN,
 * COMMIT and the like do not write), failed or not, with its text.
 */
const makeConnection = (db: Sqlite, wrote: (sql: string) => void): Connection => {
  const prepare = preparedStatements(db, CACHE_SIZE)

  const run = (
    prepareWith: (sql: string) => Sqlite.Statement,
    sql: string,
    params: ReadonlyArray<unknown>,
    raw: boolean
  ): Effect.Effect<ReadonlyArray<any>, SqlError> =>
    Effect.withFiberRuntime((fiber) => {
      try {
        const statement = prepareWith(sql)
        if (Context.get(fiber.currentContext, Client.SafeIntegers)) statement.safeIntegers(true)
        try {
          if (statement.reader) return Effect.succeed(statement.all(...params))
          const result = statement.run(...params)
          return Effect.succeed(raw ? result as unknown as ReadonlyArray<any> : [])
        } finally {
          if (!statement.readonly) wrote(sql)
        }
      } catch (cause) {
        return Effect.fail(failed(cause, "Failed to execute statement"))
      }
    })

  const prepareOnce = (sql: string) => db.prepare(sql)

  return {
    execute: (sql, params, transformRows) =>
      transformRows ? Effect.map(run(prepare, sql, params, false), transformRows) : run(prepare, sql, params, false),
    executeRaw: (sql, params) => run(prepare, sql, params, true),
    executeValues: (sql, params) =>
      Effect.try({
        try: () => {
          const statement = prepare(sql)
          try {
            if (!statement.reader) {
              statement.run(...params)
              return []
            }
            statement.raw(true)
            try {
              return statement.all(...params) as ReadonlyArray<ReadonlyArray<unknown>>
            } finally {
              statement.raw(false)
            }
          } finally {
            if (!statement.readonly) wrote(sql)
          }
        },
        catch: (cause) => failed(cause, "Failed to execute statement")
      }),
    executeUnprepared: (sql, params, transformRows) => {
      const effect = run(prepareOnce, sql, params ?? [], false)
      return transformRows ? Effect.map(effect, transformRows) : effect
    },
    executeStream: () => Stream.dieMessage("executeStream not implemented")
  }
}

/**
 * The connection as statements outside a transaction see it: used at once while no transaction
 * holds it, else after the transaction has released it.
 */
const guarded = (connection: Connection, lock: Lock.Lock): Connection => {
  const whenFree = <A>(effect: Effect.Effect<A, SqlError>) => Effect.suspend(() => (lock.held ? lock.withLock(effect) : effect))
  return {
    execute: (sql, params, transformRows) => whenFree(connection.execute(sql, params, transformRows)),
    executeRaw: (sql, params) => whenFree(connection.executeRaw(sql, params)),
    executeValues: (sql, params) => whenFree(connection.executeValues(sql, params)),
    executeUnprepared: (sql, params, transformRows) => whenFree(connection.executeUnprepared(sql, params, transformRows)),
    executeStream: (sql, params, transformRows) => connection.executeStream(sql, params, transformRows)
  }
}

export interface SqliteClientOptions {
  readonly filename: string
}

/** The client, and the stamp core's CredentialChanges reads. */
export interface SqliteClient extends Client.SqlClient {
  /**
   * Moves whenever a credential may have changed since it was last read: on any commit by
   * another connection (SQLite's `PRAGMA data_version`: a read transaction of its own, a few
   * microseconds), and on this one's statements that may change one (`CredentialWrites`: a
   * write to `api_keys` or a table that reaches it, failed or not; not an insight's update).
   * `undefined` when SQLite cannot answer.
   */
  readonly changeStamp: () => number | undefined
  /**
   * `reserve` with the scope given rather than read from the context: the Transactor's way in,
   * which spares it `Scope.extend` (a copy of the request's whole context per transaction).
   */
  readonly reserveIn: (scope: Scope.Scope) => Effect.Effect<Connection>
  /**
   * The connection, reserved now, when nothing holds it; undefined, having reserved nothing,
   * when something does. A write transaction's way in when the connection is free (nearly
   * always): no scope, no wait, no effect (`SqliteTransactor`). Give it back with `unreserve`.
   */
  readonly tryReserve: () => Connection | undefined
  /** Gives back the connection `tryReserve` reserved. */
  readonly unreserve: () => void
}

/** Whether `sql` is this package's client (the store's Transactor runs over nothing else). */
export const isSqliteClient = (sql: Client.SqlClient): sql is SqliteClient =>
  "reserveIn" in sql && typeof sql.reserveIn === "function"

/** See `SqliteClient.changeStamp`. */
const makeChangeStamp = (db: Sqlite) => {
  const dataVersion = db.prepare("PRAGMA data_version").pluck()
  let seenVersion: unknown = undefined
  let changes = 0
  return {
    wrote: (sql: string) => {
      if (mayChangeCredentials(sql)) changes++
    },
    stamp: (): number | undefined => {
      try {
        const version = dataVersion.get()
        if (version !== seenVersion) {
          seenVersion = version
          changes++
        }
        return changes
      } catch {
        return undefined
      }
    }
  }
}

/** Opens the connection (WAL) for the life of the scope. better-sqlite3 throws from its constructor. */
export const make = (options: SqliteClientOptions): Effect.Effect<SqliteClient, never, Scope.Scope | Reactivity.Reactivity> =>
  Effect.gen(function*() {
    const db = new Sqlite(options.filename)
    yield* Effect.addFinalizer(() => Effect.sync(() => db.close()))
    db.pragma("journal_mode = WAL")

    const changes = makeChangeStamp(db)
    const connection = makeConnection(db, changes.wrote)
    const lock = Lock.make()
    const shared = guarded(connection, lock)

    // Held from before BEGIN until after COMMIT or ROLLBACK (the scope closes after either).
    // The release goes on the scope itself, not through `Effect.addFinalizer`, which runs its
    // finalizer under the FiberRefs of the acquisition: a diff and a patch of every FiberRef,
    // the whole context included (~60 KB of copies per transaction), for a release that reads none.
    const release = Effect.sync(lock.release)
    const reserveIn = (scope: Scope.Scope): Effect.Effect<Connection> =>
      Effect.uninterruptibleMask((restore) => Effect.as(Effect.zipRight(lock.take(restore), Scope.addFinalizer(scope, release)), connection))
    const reserve = Effect.flatMap(Effect.scope, reserveIn)
    const tryReserve = () => (lock.tryTake() ? connection : undefined)

    const client = yield* Client.make({
      acquirer: Effect.succeed(shared),
      transactionAcquirer: reserve,
      compiler: Statement.makeCompilerSqlite(),
      spanAttributes: [["db.system.name", "sqlite"]]
    })
    return Object.assign(client, { changeStamp: changes.stamp, reserveIn, tryReserve, unreserve: lock.release })
  })
