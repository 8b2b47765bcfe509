/**
 * What every repository needs: the client, the dialect's error mapping, the write lock and row
 * decoding. Reads run through the store's `StatementRunner`.
 */
import { type Errors, Transactor } from "@costline/core"
import { SqlClient, TransactionConnection } from "@effect/sql/SqlClient"
import type { SqlError } from "@effect/sql/SqlError"
import { Array as Arr, Context, Effect, type Schema } from "effect"
import { rowDecoder } from "../Columns.js"
import { SqlDialect } from "../SqlDialect.js"
import { StatementRunner } from "../StatementRunner.js"
import { makeStoreErrors } from "../StoreErrors.js"

type Rows = Effect.Effect<ReadonlyArray<unknown>, SqlError>
type TrustedRows = Effect.Effect<ReadonlyArray<Record<string, unknown>>, SqlError>

export const RepoContext = Effect.gen(function*() {
  const sql = yield* SqlClient
  const dialect = yield* SqlDialect
  const transactor = yield* Transactor.Transactor
  const errors = makeStoreErrors(dialect.classify)
  const { run } = yield* StatementRunner
  return {
    sql,
    dialect,
    errors,
    /**
     * A write that can only fail as a whole (StoreUnavailable, or a defect): outside a
     * transaction it runs in one of its own through the Transactor, so it takes the store's write
     * lock the same way (SQLite: BEGIN IMMEDIATE, never a busy wait on the event loop); inside a
     * caller's transaction it simply joins it, without a savepoint: any failure fails the
     * caller's whole transaction (core never goes on in a transaction after StoreUnavailable), so
     * there is nothing to undo part of. A savepoint would cost two statements (issue 19).
     */
    write: <A, R>(effect: Effect.Effect<A, Errors.StoreUnavailable, R>): Effect.Effect<A, Errors.StoreUnavailable, R> =>
      Effect.contextWithEffect((context: Context.Context<never>) =>
        Context.getOption(context, TransactionConnection)._tag === "Some" ? effect : transactor.withTransaction(effect)
      ),
    /**
     * A write that may fail with a typed error its caller can recover from (a duplicate is
     * AlreadyExists): as `write`, but inside a caller's transaction it runs as a savepoint, so
     * such a failure leaves the caller's transaction usable (also on Postgres, where a failed
     * statement otherwise aborts the transaction) and undoes only this write.
     */
    recoverableWrite: transactor.withTransaction,
    /**
     * A statement through the store's `StatementRunner`, as reads run: straight on the
     * connection where the store allows (SQLite with tracing off), else through `@effect/sql`
     * (a span, and a scope whose merge copies the request's whole context). For writes every
     * write request makes, such as the audit record it appends.
     */
    execute: run,
    /** Reads of one table: rows decoded by a schema compiled once, SQL failures mapped. */
    reader: <Row, I, A>(row: Schema.Schema<Row, I>, toDomain: (row: Row) => A) => {
      const decode = rowDecoder(row, toDomain)
      const all = (rows: Rows) => run(rows).pipe(Effect.flatMap(decode), errors.orUnavailable)
      return { all, first: (rows: Rows) => all(rows).pipe(Effect.map(Arr.head)) }
    },
    /** Reads of a hot table, its rows mapped without re-validation (see `trustedRow`), SQL failures mapped. */
    trustedReader: <A>(toDomain: (row: Record<string, unknown>) => A) => {
      const all = (rows: TrustedRows) => run(rows).pipe(Effect.map((found) => found.map(toDomain)), errors.orUnavailable)
      return { all, first: (rows: TrustedRows) => all(rows).pipe(Effect.map(Arr.head)) }
    }
  }
})
