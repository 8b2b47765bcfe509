/**
 * Many generated rows into one table, as fast as each store takes them: on SQLite multi-row
 * INSERTs in large transactions; on Postgres `INSERT … SELECT * FROM unnest(…)` with one array
 * parameter per column (ten thousand rows per statement, which a multi-row INSERT's 65,535-
 * parameter limit and per-parameter parsing would not allow), two statements at a time. Rows
 * may land in another order than generated; nothing measured depends on it. Every shape the
 * generator makes is first decoded with the domain's schema: the benchmark must read valid data.
 */
import { SqlClient } from "@effect/sql/SqlClient"
import { Effect, Schema } from "effect"
import { arrayLiteral } from "../../packages/store-sql/src/PgArrays.js"

/** SQLite's limit on bound parameters in one statement. */
const SQLITE_MAX_PARAMETERS = 32_766
const SQLITE_MAX_ROWS_PER_STATEMENT = 1_000
/** SQLite: rows per transaction, so that a million rows take few commits. */
const SQLITE_ROWS_PER_TRANSACTION = 50_000
/** Postgres: rows per `unnest` statement; each statement is its own transaction. */
const PG_ROWS_PER_STATEMENT = 10_000
/** Postgres: statements in flight, so the next batch is built while the server inserts one. */
const PG_STATEMENTS_IN_FLIGHT = 2
/** Generated values checked against the domain schema before anything is inserted. */
const DECODED_SAMPLES = 60

type Row = Record<string, unknown>

export interface BulkInsert<A> {
  readonly table: string
  readonly count: number
  /** The n-th value, in the domain's shape. */
  readonly make: (n: number) => A
  /** The domain schema every value must decode as. */
  readonly schema: Schema.Schema<any, any>
  /** The store's row for a value: every row must have the same columns. */
  readonly toRow: (value: A) => Row
}

const rowsOf = <A>(plan: BulkInsert<A>, from: number, upTo: number): Array<Row> =>
  Array.from({ length: upTo - from }, (_, i) => plan.toRow(plan.make(from + i)))

const sqliteInsert = <A>(plan: BulkInsert<A>, columns: number) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient
    const perStatement = Math.min(SQLITE_MAX_ROWS_PER_STATEMENT, Math.floor(SQLITE_MAX_PARAMETERS / columns))
    for (let from = 0; from < plan.count; from += SQLITE_ROWS_PER_TRANSACTION) {
      const upTo = Math.min(plan.count, from + SQLITE_ROWS_PER_TRANSACTION)
      yield* sql.withTransaction(Effect.gen(function*() {
        for (let start = from; start < upTo; start += perStatement) {
          const rows = rowsOf(plan, start, Math.min(upTo, start + perStatement))
          yield* sql`INSERT INTO ${sql(plan.table)} ${sql.insert(rows)}`
        }
      }))
    }
  })

/** The table's column types as Postgres names them (`timestamp with time zone`, `jsonb`, …). */
const pgColumnTypes = (table: string) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient
    const rows = yield* sql<{ name: string; type: string }>`
      SELECT attname AS name, format_type(atttypid, atttypmod) AS type FROM pg_attribute
      WHERE attrelid = ${table}::regclass AND attnum > 0 AND NOT attisdropped`
    return new Map(rows.map((row) => [row.name, row.type]))
  })

/** `INSERT INTO t ("a", "b") SELECT * FROM unnest($1::text[], $2::jsonb[])`, given the columns. */
export const unnestInsert = (table: string, columns: ReadonlyArray<string>, types: ReadonlyMap<string, string>) => {
  const casts = columns.map((column, i) => {
    const type = types.get(column)
    if (type === undefined) throw new Error(`${table} has no column ${column}`)
    return `$${i + 1}::${type}[]`
  })
  const names = columns.map((column) => `"${column}"`).join(", ")
  return `INSERT INTO "${table}" (${names}) SELECT * FROM unnest(${casts.join(", ")})`
}

/** Postgres array literals (one home: the store's bulk staging writes the same). */
export { arrayLiteral }

/** One array literal per column, in `columns` order: what `unnest` takes. */
export const columnArrays = (rows: ReadonlyArray<Row>, columns: ReadonlyArray<string>): Array<string> =>
  columns.map((column) => arrayLiteral(rows.map((row) => row[column])))

const pgInsert = <A>(plan: BulkInsert<A>, columns: ReadonlyArray<string>) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient
    const statement = unnestInsert(plan.table, columns, yield* pgColumnTypes(plan.table))
    const starts = Array.from({ length: Math.ceil(plan.count / PG_ROWS_PER_STATEMENT) }, (_, i) => i * PG_ROWS_PER_STATEMENT)
    yield* Effect.forEach(
      starts,
      (from) =>
        Effect.suspend(() => {
          const rows = rowsOf(plan, from, Math.min(plan.count, from + PG_ROWS_PER_STATEMENT))
          return sql.unsafe(statement, columnArrays(rows, columns))
        }),
      { concurrency: PG_STATEMENTS_IN_FLIGHT, discard: true }
    )
  })

export const insertMany = <A>(plan: BulkInsert<A>) =>
  Effect.gen(function*() {
    const decode = Schema.decodeUnknownSync(plan.schema)
    for (let n = 0; n < Math.min(plan.count, DECODED_SAMPLES); n++) decode(plan.make(n))
    if (plan.count === 0) return
    const columns = Object.keys(plan.toRow(plan.make(0)))
    const sql = yield* SqlClient
    yield* sql.onDialectOrElse({
      pg: () => pgInsert(plan, columns),
      orElse: () => sqliteInsert(plan, columns.length)
    })
  })
