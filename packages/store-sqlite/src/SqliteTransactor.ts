/**
 * Write transactions on SQLite: `@effect/sql-sqlite-node` begins with a deferred `BEGIN`, which
 * fails with SQLITE_BUSY when two connections later upgrade to writing. Ours takes the process's
 * write lock, reserves the connection and runs `BEGIN IMMEDIATE`, so the database's write lock is
 * held from the first statement and waiting happens before anything was read.
 */
import { Transactor } from "@costline/core"
import { makeStoreErrors, makeTransactor, SqlDialect } from "@costline/store-sql"
import { makeWithTransaction, SqlClient, TransactionConnection } from "@effect/sql/SqlClient"
import type { Connection } from "@effect/sql/SqlConnection"
import { Effect, Exit, Layer, Scope } from "effect"
import { writeLockFor } from "./WriteLock.js"

const run = (connection: Connection, statement: string) => connection.executeUnprepared(statement, [], undefined)

export const make = (filename: string) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient
    const dialect = yield* SqlDialect
    const writeLock = writeLockFor(filename)

    // BEGIN IMMEDIATE is part of acquiring: if it fails there is no transaction to roll back.
    const acquireConnection = Effect.gen(function*() {
      const scope = yield* Scope.make()
      const connection = yield* writeLock.take(1).pipe(
        Effect.zipRight(Scope.addFinalizer(scope, writeLock.release(1))),
        Effect.zipRight(Scope.extend(sql.reserve, scope)),
        Effect.tap((connection) => run(connection, "BEGIN IMMEDIATE")),
        Effect.onError((cause) => Scope.close(scope, Exit.failCause(cause)))
      )
      return [scope, connection] as const
    })

    const withTransaction = makeWithTransaction({
      transactionTag: TransactionConnection,
      spanAttributes: [["db.system.name", "sqlite"]],
      acquireConnection,
      begin: () => Effect.void,
      savepoint: (connection, id) => run(connection, `SAVEPOINT costline_${id}`),
      commit: (connection) => run(connection, "COMMIT"),
      rollback: (connection) => run(connection, "ROLLBACK"),
      rollbackSavepoint: (connection, id) => run(connection, `ROLLBACK TO SAVEPOINT costline_${id}`)
    })
    return makeTransactor(makeStoreErrors(dialect.classify), withTransaction)
  })

export const layer = (filename: string) => Layer.effect(Transactor, make(filename))
