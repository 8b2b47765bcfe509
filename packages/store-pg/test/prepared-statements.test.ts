/**
 * The store's connections send queries with parameters as named statements, each text under one
 * name, prepared once per connection; a pool names a bounded number of texts; queries without
 * parameters (several statements in one) keep the simple protocol; `preparedStatements: false`
 * names nothing.
 */
import { PgStore } from "@costline/store-pg"
import { SqlClient } from "@effect/sql/SqlClient"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer } from "effect"
import pg from "pg"
import { MAX_PARAMETERS, namingClient } from "../src/PreparedStatements.js"
import { useFreshDatabase } from "./support/database.js"

const url = useFreshDatabase()

interface Prepared {
  readonly name: string
  readonly statement: string
}

/** Runs `queries` on one connection of the store (a transaction's), then lists that connection's prepared statements. */
const preparedAfter = (store: Layer.Layer<SqlClient, unknown>, queries: ReadonlyArray<readonly [string, ReadonlyArray<unknown>]>) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient
    return yield* sql.withTransaction(Effect.gen(function*() {
      for (const [text, params] of queries) yield* sql.unsafe(text, params)
      return yield* sql.unsafe<Prepared>("SELECT name, statement FROM pg_prepared_statements ORDER BY name")
    }))
  }).pipe(Effect.provide(Layer.orDie(store)))

const READ = "SELECT $1::int + 1 AS answer"
/** A statement of MAX_PARAMETERS + 1 values. */
const BULK = `SELECT ${Array.from({ length: MAX_PARAMETERS + 1 }, (_, i) => `$${i + 1}::int`).join(" + ")} AS total`

describe("named statements", () => {
  it.effect("a query with parameters is prepared once on its connection, under one name for its text", () =>
    Effect.gen(function*() {
      const prepared = yield* preparedAfter(PgStore.layer({ url, verifiedKeyCache: false }), [
        [READ, [1]],
        [READ, [2]],
        ["SELECT $1::text AS other", ["x"]],
        // Several statements, no parameters: the simple protocol, as before.
        ["SELECT 1; SELECT 2", []],
        // A bulk statement: unnamed, as before.
        [BULK, Array.from({ length: MAX_PARAMETERS + 1 }, (_, i) => i)]
      ])
      // The connection may have prepared the store's own statements before (its migration check).
      const ours = prepared.filter((row) =>
        row.statement === READ || row.statement.startsWith("SELECT $1::text") || row.statement.startsWith("SELECT 1") || row.statement === BULK
      )
      expect(ours.map((row) => row.statement).sort()).toEqual([READ, "SELECT $1::text AS other"].sort())
      expect(ours.every((row) => row.name.startsWith("costline_"))).toBe(true)
      expect(new Set(prepared.map((row) => row.name)).size).toBe(prepared.length)
    }))

  it.effect("preparedStatements: false prepares nothing", () =>
    Effect.gen(function*() {
      const prepared = yield* preparedAfter(PgStore.layer({ url, verifiedKeyCache: false, preparedStatements: false }), [
        [READ, [1]],
        [READ, [2]]
      ])
      expect(prepared).toEqual([])
    }))

  it.effect("the store's reads and writes answer the same through named statements", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient
      // The same statement with values of another shape each time, and one that fails.
      for (const value of [1, 2_000_000_000, -7]) {
        expect(yield* sql.unsafe<{ readonly answer: number }>(READ, [value])).toEqual([{ answer: value + 1 }])
      }
      const failed = yield* Effect.flip(sql.unsafe(READ, ["not a number"]))
      expect(String((failed.cause as Error).message)).toContain("invalid input syntax")
      expect(yield* sql.unsafe<{ readonly answer: number }>(READ, [41])).toEqual([{ answer: 42 }])
    }).pipe(Effect.provide(Layer.orDie(PgStore.layer({ url, verifiedKeyCache: false })))))
})

describe("a pool's named texts are bounded", () => {
  it("names the first texts up to the limit and sends the rest unnamed", async () => {
    const pool = new pg.Pool({ connectionString: url, max: 1, Client: namingClient(2) })
    try {
      const client = await pool.connect()
      try {
        for (const n of [1, 2, 3, 1]) await client.query(`SELECT $1::int * ${n} AS product`, [n])
        const { rows } = await client.query<Prepared>("SELECT name, statement FROM pg_prepared_statements ORDER BY name")
        expect(rows).toEqual([
          { name: "costline_1", statement: "SELECT $1::int * 1 AS product" },
          { name: "costline_2", statement: "SELECT $1::int * 2 AS product" }
        ])
        // The unnamed third text still answers.
        expect((await client.query("SELECT $1::int * 3 AS product", [3])).rows).toEqual([{ product: 9 }])
      } finally {
        client.release()
      }
    } finally {
      await pool.end()
    }
  })
})
