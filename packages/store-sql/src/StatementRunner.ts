/**
 * How a repository runs a read. `@effect/sql` runs every statement inside a `sql.execute` span
 * and a scope of its own in which it acquires a connection: about 80 interpreter steps around a
 * statement that itself takes one (`bench/cpu.ts --steps`), on every read of every request.
 *
 * A store whose connection outside a transaction is one fixed connection that needs no scope
 * (SQLite: the one connection of the process; Postgres: @effect/sql-pg's pool-level connection,
 * which checks a client out per query) provides `unscoped`: while tracing is off (no span could be recorded anyway) a read runs
 * straight on the connection `@effect/sql` would have chosen (its transaction's inside one). With
 * tracing on, or a statement transformer set, the statement runs as `@effect/sql` runs it.
 */
import { TransactionConnection } from "@effect/sql/SqlClient"
import type { Connection } from "@effect/sql/SqlConnection"
import type { SqlError } from "@effect/sql/SqlError"
import * as Statement from "@effect/sql/Statement"
import { Context, Effect, FiberRef, Option } from "effect"

export type Run = <A>(statement: Effect.Effect<ReadonlyArray<A>, SqlError>) => Effect.Effect<ReadonlyArray<A>, SqlError>

/** The default runs the statement as `@effect/sql` does. */
export class StatementRunner extends Context.Reference<StatementRunner>()("@costline/store-sql/StatementRunner", {
  defaultValue: (): { readonly run: Run } => ({ run: (statement) => statement })
}) {}

/**
 * The parts of an `@effect/sql` statement this runner reads (public fields of its statement
 * class, not of the `Statement` interface): how it acquires its connection, and its row transform.
 */
interface StatementParts<A> extends Statement.Statement<A> {
  readonly acquirer: Effect.Effect<Connection, SqlError>
  readonly transformRows: ((rows: ReadonlyArray<object>) => ReadonlyArray<A>) | undefined
}

const hasParts = <A>(statement: Effect.Effect<ReadonlyArray<A>, SqlError>): statement is StatementParts<A> =>
  Statement.isFragment(statement) && "acquirer" in statement && Effect.isEffect(statement.acquirer)

/**
 * The connection each client's acquirer gave outside a transaction. The stores that use
 * `unscoped` have one fixed connection there (it is what makes a scope needless), so it is asked
 * for once, not at every statement (a look for a transaction and a flatMap, ~7 steps).
 */
const fixedConnections = new WeakMap<object, Connection>()

/** See the module: for stores whose connection outside a transaction is one fixed connection. */
export const unscoped: Run = <A>(statement: Effect.Effect<ReadonlyArray<A>, SqlError>) =>
  hasParts(statement)
    ? Effect.withFiberRuntime<ReadonlyArray<A>, SqlError>((fiber) => {
      if (fiber.getFiberRef(FiberRef.currentTracerEnabled) || Option.isSome(fiber.getFiberRef(Statement.currentTransformer))) {
        return statement
      }
      const [sql, params] = statement.compile()
      const transaction = Context.getOption(fiber.currentContext, TransactionConnection)
      const run = (connection: Connection) =>
        connection.execute(sql, params, statement.transformRows as (<B extends object>(rows: ReadonlyArray<B>) => ReadonlyArray<B>) | undefined) as Effect.Effect<ReadonlyArray<A>, SqlError>
      if (Option.isSome(transaction)) return run(transaction.value[0])
      const known = fixedConnections.get(statement.acquirer)
      return known !== undefined ? run(known) : Effect.flatMap(statement.acquirer, (connection) => {
        fixedConnections.set(statement.acquirer, connection)
        return run(connection)
      })
    })
    : statement
