/**
 * Lists on SQL: a core `Window` (rows after a keyset position, in (time, id) order, skipping an
 * offset, at most a limit; column names may be qualified, `m.added_at`) and row counts.
 */
import type { Listing } from "@costline/core"
import type { SqlClient } from "@effect/sql/SqlClient"
import type { SqlError } from "@effect/sql/SqlError"
import type { Fragment } from "@effect/sql/Statement"
import { Effect, Option, Schema } from "effect"
import type { RepoContext } from "./RepoContext.js"

/** The rows strictly after the window's keyset position; none when it has no position. */
export const afterPosition = (sql: SqlClient, window: Listing.Window, at: string, id: string): ReadonlyArray<Fragment> =>
  window.after === undefined
    ? []
    : [sql`(${sql(at)} > ${window.after.at} OR (${sql(at)} = ${window.after.at} AND ${sql(id)} > ${window.after.id}))`]

/** `ORDER BY at, id LIMIT … OFFSET …`. */
export const windowOrder = (sql: SqlClient, window: Listing.Window, at: string, id: string): Fragment =>
  sql`ORDER BY ${sql(at)}, ${sql(id)} LIMIT ${window.limit} OFFSET ${window.offset ?? 0}`

/** node-postgres returns `count(*)` (int8) as text; SQLite as a number. */
const CountRow = Schema.Struct({ count: Schema.Union(Schema.Number, Schema.NumberFromString) })

/** Runs a `SELECT count(*) AS count ...` query. */
export const makeCount = (context: Effect.Effect.Success<typeof RepoContext>) => {
  const counts = context.reader(CountRow, (row) => row.count)
  return (query: Effect.Effect<ReadonlyArray<unknown>, SqlError>) =>
    Effect.map(counts.first(query), Option.getOrElse(() => 0))
}
