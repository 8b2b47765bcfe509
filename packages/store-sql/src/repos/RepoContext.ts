/**
 * What every repository needs: the client, the dialect's error mapping, the write lock and row
 * decoding. Reads run through the store's `StatementRunner`.
 */
import { Transactor } from "@costline/core"
import { SqlClient } from "@effect/sql/SqlClient"
import type { SqlError } from "@effect/sql/SqlError"
import { Array as Arr, Effect, type Schema } from "effect"
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
     * Every write runs through the Transactor, so it takes the store's write lock the same way
     * (SQLite: BEGIN IMMEDIATE, never a busy wait on the event loop) and, inside a caller's
     * transaction, runs as a savepoint: a write that fails with a typed error (a duplicate)
     * leaves the caller's transaction usable, also on Postgres.
     */
    write: transactor.withTransaction,
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
