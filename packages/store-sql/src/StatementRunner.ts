/**
 * How a repository runs a read. `@effect/sql` runs every statement inside a `sql.execute` span
 * and a scope of its own that acquires the connection: about 80 interpreter steps around a
 * statement that itself takes one (`bench/cpu.ts --steps`), on every read of every request. A
 * store whose connection is always at hand (SQLite: one per process) provides a runner that
 * executes the statement on it straight away while tracing is off — when no span could be
 * recorded anyway — and leaves everything else to `@effect/sql`.
 */
import type { SqlError } from "@effect/sql/SqlError"
import { Context, type Effect } from "effect"

export type Run = <A>(statement: Effect.Effect<ReadonlyArray<A>, SqlError>) => Effect.Effect<ReadonlyArray<A>, SqlError>

/** The default runs the statement as `@effect/sql` does. */
export class StatementRunner extends Context.Reference<StatementRunner>()("@costline/store-sql/StatementRunner", {
  defaultValue: (): { readonly run: Run } => ({ run: (statement) => statement })
}) {}
