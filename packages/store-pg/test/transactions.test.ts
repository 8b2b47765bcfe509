/**
 * Postgres's Transactor: with tracing on, `@effect/sql`'s transaction and its span; off (the
 * server's default), store-sql's `UntracedTransaction`, the connection layered over the caller's
 * context. Every case runs both ways, on a pool of one connection: a connection not given back
 * would stop the next transaction.
 */
import { LayeredMap, Transactor } from "@costline/core"
import { PgStore } from "@costline/store-pg"
import { SqlClient, TransactionConnection } from "@effect/sql/SqlClient"
import { describe, expect, it } from "@effect/vitest"
import { Context, Effect, Exit, Fiber, Layer } from "effect"
import { useFreshDatabase } from "./support/database.js"

const url = useFreshDatabase()
const store = () => Layer.fresh(PgStore.layer({ url, verifiedKeyCache: false, maxConnections: 1 }))

describe.each([
  ["on", true],
  ["off", false]
] as const)("with tracing %s", (label, tracing) => {
  const provided = <A, E>(effect: Effect.Effect<A, E, Transactor.Transactor | SqlClient>) =>
    effect.pipe(Effect.withTracerEnabled(tracing), Effect.provide(store()))
  const table = `notes_${label}`

  it.live("commits on success, rolls back on a failure, a defect or an interruption, and gives the connection back each time", () =>
    provided(Effect.gen(function*() {
      const transactor = yield* Transactor.Transactor
      const sql = yield* SqlClient
      yield* sql.unsafe(`CREATE TABLE ${table} (n serial PRIMARY KEY, text text NOT NULL)`)
      const insert = (text: string) => sql.unsafe(`INSERT INTO ${table} (text) VALUES ('${text}')`)
      const inside = yield* transactor.withTransaction(Effect.zipRight(insert("committed"), Effect.context<never>()))
      // The connection is in the transaction's context, and only there.
      expect(Context.getOption(inside, TransactionConnection)._tag).toBe("Some")
      expect(Context.getOption(yield* Effect.context<never>(), TransactionConnection)._tag).toBe("None")

      expect(Exit.isFailure(yield* Effect.exit(transactor.withTransaction(Effect.zipRight(insert("failed"), Effect.fail("no")))))).toBe(true)
      expect(Exit.isFailure(yield* Effect.exit(transactor.withTransaction(Effect.zipRight(insert("died"), Effect.die("boom")))))).toBe(true)
      const started = yield* Effect.makeLatch()
      const interrupted = yield* Effect.fork(transactor.withTransaction(
        insert("interrupted").pipe(Effect.zipRight(started.open), Effect.zipRight(Effect.never))
      ))
      yield* started.await
      yield* Fiber.interrupt(interrupted)

      yield* transactor.withTransaction(insert("after"))
      expect(yield* sql.unsafe(`SELECT text FROM ${table} ORDER BY n`)).toEqual([{ text: "committed" }, { text: "after" }])
    })))

  it.live("a nested transaction that failed is rolled back alone; the outer one goes on and commits", () =>
    provided(Effect.gen(function*() {
      const transactor = yield* Transactor.Transactor
      const sql = yield* SqlClient
      yield* sql.unsafe(`CREATE TABLE nested_${table} (n serial PRIMARY KEY, text text NOT NULL)`)
      const insert = (text: string) => sql.unsafe(`INSERT INTO nested_${table} (text) VALUES ('${text}')`)
      yield* transactor.withTransaction(
        Effect.gen(function*() {
          yield* insert("kept")
          yield* Effect.ignore(transactor.withTransaction(Effect.zipRight(insert("undone"), Effect.fail("no"))))
          yield* transactor.withTransaction(transactor.withTransaction(insert("nested, kept")))
          yield* insert("also kept")
        })
      )
      expect(yield* sql.unsafe(`SELECT text FROM nested_${table} ORDER BY n`)).toEqual([
        { text: "kept" },
        { text: "nested, kept" },
        { text: "also kept" }
      ])
    })))
})

it.live("with tracing off the transaction's context is layered over the caller's, not a copy of it", () =>
  Effect.gen(function*() {
    const transactor = yield* Transactor.Transactor
    const within = (tracing: boolean) =>
      transactor.withTransaction(Effect.context<never>()).pipe(Effect.withTracerEnabled(tracing))
    // @effect/sql's copies the whole context (a Map of every service) for each transaction.
    expect((yield* within(true)).unsafeMap).not.toBeInstanceOf(LayeredMap.LayeredMap)
    expect((yield* within(false)).unsafeMap).toBeInstanceOf(LayeredMap.LayeredMap)
  }).pipe(Effect.provide(store())))
