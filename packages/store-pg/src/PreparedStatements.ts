/**
 * Statements the store's connections prepare once and reuse. node-postgres sends a query with
 * parameters as an unnamed statement: Postgres parses and plans it again at every execution. For
 * an insight read by its key that was ~115 µs of the server's CPU and 65–90 µs of the driver's
 * per query; sent under a name, a connection parses it once and then only binds and executes it:
 * ~40 and ~50 µs (issue 19, `npx vite-node bench/pg-prepared.ts`,
 * `bench/results/2026-11-26-s14-prepared.jsonl`).
 *
 * A query is named by its text, so one name always means one text on every connection. The
 * first `limit` distinct texts of a pool are named, the rest are sent as before: the lists'
 * filters make many texts (an `IN` list of each length is one), and each named one holds a plan
 * on every connection that ran it: ~62 KB for a list page's with an `IN` list of 50 values. A
 * statement of more than MAX_PARAMETERS values (a long `IN` list, the ingestions' 500-row
 * INSERTs, whose last chunk has a new length each time) is sent unnamed too: its parse is a
 * smaller share of its work, and its plan a large one to keep. So a connection keeps at most
 * DEFAULT_LIMIT plans of a bounded size, however its clients vary their filters; the statements
 * of every route's common case are a few dozen texts.
 * Queries without parameters (BEGIN, COMMIT, a migration's script of several statements) stay on
 * the simple protocol, which is the only one that takes several statements.
 *
 * A pooler that hands each transaction another server connection (pgbouncer in transaction
 * mode, before 1.21 or without `max_prepared_statements`) loses named statements between
 * connections: behind one, the store is given `preparedStatements: false`.
 */
import pg from "pg"

/** Distinct query texts a pool names (each a plan on every connection that ran it). */
export const DEFAULT_LIMIT = 100
/** The most values a named statement takes; a query with more is sent unnamed. */
export const MAX_PARAMETERS = 32

type Query = (this: pg.Client, config: unknown, values?: unknown, callback?: unknown) => unknown

/** A `pg.Client` class whose queries with parameters are sent as named statements. */
export const namingClient = (limit: number = DEFAULT_LIMIT): typeof pg.Client => {
  const names = new Map<string, string>()
  const nameOf = (text: string): string | undefined => {
    let name = names.get(text)
    if (name === undefined && names.size < limit) {
      name = `costline_${names.size + 1}`
      names.set(text, name)
    }
    return name
  }
  const query = pg.Client.prototype.query as unknown as Query
  class NamingClient extends pg.Client {}
  ;(NamingClient.prototype as unknown as { query: Query }).query = function(config, values, callback) {
    if (typeof config === "string" && Array.isArray(values) && values.length > 0 && values.length <= MAX_PARAMETERS) {
      const name = nameOf(config)
      if (name !== undefined) return query.call(this, { name, text: config, values }, callback)
    }
    return query.call(this, config, values, callback)
  }
  return NamingClient
}
