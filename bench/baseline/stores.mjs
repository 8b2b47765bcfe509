// @ts-check
/**
 * The baseline's database access: the drivers costline's stores use (better-sqlite3 under
 * @effect/sql-sqlite-node, pg under @effect/sql-pg), opened with the same settings (WAL and a
 * busy timeout on SQLite, a pool of 10 on Postgres), and nothing on top. Each store answers
 * `all(statement, params)` with plain rows; statements are given per dialect by the routes.
 */
import Database from "better-sqlite3"
import pg from "pg"

/** @typedef {{ sqlite: string, postgres: string }} Statement */
/** @typedef {(statement: Statement, params: ReadonlyArray<unknown>) => Promise<Array<Record<string, any>>>} Query */
/** @typedef {(statement: Statement, params: ReadonlyArray<unknown>) => Promise<Array<Array<any>>>} ValuesQuery */
/**
 * @typedef {{
 *   dialect: "sqlite" | "postgres",
 *   all: Query,
 *   values: ValuesQuery,
 *   transaction: <A>(work: (all: Query) => Promise<A>) => Promise<A>,
 *   close: () => Promise<void>
 * }} Store
 */

/** Runs `work` between BEGIN and COMMIT (ROLLBACK when it throws). @template A @param {(text: string) => Promise<unknown>} exec @param {() => Promise<A>} work */
const inTransaction = async (exec, work, begin = "BEGIN") => {
  await exec(begin)
  try {
    const result = await work()
    await exec("COMMIT")
    return result
  } catch (error) {
    await exec("ROLLBACK")
    throw error
  }
}

/** @param {string} filename @returns {Store} */
const sqlite = (filename) => {
  const db = new Database(filename)
  db.pragma("journal_mode = WAL")
  db.pragma("busy_timeout = 5000")
  // Prepared once per text, as @effect/sql-sqlite-node's statement cache does; rows as objects,
  // or as arrays (`raw`, a mode of the statement, hence a cache of its own).
  /** @type {Map<string, import("better-sqlite3").Statement>} */
  const prepared = new Map()
  /** @type {Map<string, import("better-sqlite3").Statement>} */
  const preparedRaw = new Map()
  const prepare = (/** @type {string} */ text, raw = false) => {
    const cache = raw ? preparedRaw : prepared
    let statement = cache.get(text)
    if (statement === undefined) {
      statement = raw ? db.prepare(text).raw(true) : db.prepare(text)
      cache.set(text, statement)
    }
    return statement
  }
  /** @type {Query} */
  const all = async (statement, params) => {
    const prepared = prepare(statement.sqlite)
    return prepared.reader ? prepared.all(...params) : (prepared.run(...params), [])
  }
  // One connection: transactions take turns, as costline's write lock makes them.
  let turn = Promise.resolve()
  return {
    dialect: "sqlite",
    all,
    values: async (statement, params) => prepare(statement.sqlite, true).all(...params),
    transaction: (work) => {
      const run = turn.then(() => inTransaction(async (text) => db.exec(text), () => work(all), "BEGIN IMMEDIATE"))
      turn = run.then(() => undefined, () => undefined)
      return run
    },
    close: async () => db.close()
  }
}

/** @param {string} url @returns {Store} */
const postgres = (url) => {
  const pool = new pg.Pool({ connectionString: url, max: 10 })
  return {
    dialect: "postgres",
    all: async (statement, params) => (await pool.query(statement.postgres, [...params])).rows,
    values: async (statement, params) =>
      /** @type {Array<Array<any>>} */ ((await pool.query({ text: statement.postgres, values: [...params], rowMode: "array" })).rows),
    transaction: async (work) => {
      const client = await pool.connect()
      try {
        return await inTransaction((text) => client.query(text), () => work(async (statement, params) => (await client.query(statement.postgres, [...params])).rows))
      } finally {
        client.release()
      }
    },
    close: () => pool.end()
  }
}

/** `sqlite:<path>` or `postgres://…`, as `costline serve --database` takes them. @param {string} url */
export const openStore = (url) => (url.startsWith("sqlite:") ? sqlite(url.slice("sqlite:".length)) : postgres(url))
