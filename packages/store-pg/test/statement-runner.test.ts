/**
 * Reads through store-sql's `StatementRunner` on Postgres: with tracing off they run straight on
 * @effect/sql-pg's pool connection (no span, no scope), inside a transaction on its connection.
 */
import { Transactor } from "@costline/core"
import { stepsOf } from "@costline/store-contract"
import { PgStore } from "@costline/store-pg"
import { StatementRunner } from "@costline/store-sql"
import { SqlClient } from "@effect/sql/SqlClient"
import { expect, it } from "@effect/vitest"
import { Deferred, Effect, Fiber, Layer } from "effect"
import { useFreshDatabase } from "./support/database.js"

const url = useFreshDatabase()
const store = () => Layer.fresh(PgStore.layer({ url, verifiedKeyCache: false }))

it.live("with tracing off a read runs straight on the pool connection; on, through @effect/sql's span", () =>
  Effect.gen(function*() {
    const sql = yield* SqlClient
    const { run } = yield* StatementRunner.StatementRunner
    yield* run(sql`SELECT 1`).pipe(Effect.withTracerEnabled(false))
    const floor = yield* stepsOf(Effect.void)
    const untraced = (yield* stepsOf(run(sql`SELECT 1`)).pipe(Effect.withTracerEnabled(false))) - floor
    const traced = (yield* stepsOf(run(sql`SELECT 1`)).pipe(Effect.withTracerEnabled(true))) - floor
    expect(untraced).toBeLessThanOrEqual(12)
    expect(traced).toBeGreaterThanOrEqual(40)
    expect(yield* run(sql<{ readonly n: number }>`SELECT 2 AS n`).pipe(Effect.withTracerEnabled(false))).toEqual([{ n: 2 }])
  }).pipe(Effect.provide(store())))

it.live("a direct read inside a transaction sees its uncommitted write; one outside does not", () =>
  Effect.gen(function*() {
    const transactor = yield* Transactor.Transactor
    const sql = yield* SqlClient
    const { run } = yield* StatementRunner.StatementRunner
    const texts = (rows: ReadonlyArray<{ readonly text: string }>) => rows.map((row) => row.text)
    yield* sql`CREATE TABLE runner_notes (text text NOT NULL)`
    const inside = yield* Deferred.make<ReadonlyArray<string>>()
    const finish = yield* Deferred.make<void>()
    const transaction = yield* transactor.withTransaction(
      Effect.gen(function*() {
        yield* sql`INSERT INTO runner_notes VALUES ('uncommitted')`
        yield* Deferred.succeed(inside, texts(yield* run(sql<{ readonly text: string }>`SELECT text FROM runner_notes`)))
        yield* Deferred.await(finish)
        return yield* Effect.fail("rolled back")
      })
    ).pipe(Effect.flip, Effect.fork)
    expect(yield* Deferred.await(inside)).toEqual(["uncommitted"])
    expect(texts(yield* run(sql<{ readonly text: string }>`SELECT text FROM runner_notes`))).toEqual([])
    yield* Deferred.succeed(finish, undefined)
    expect(yield* Fiber.join(transaction)).toBe("rolled back")
  }).pipe(Effect.withTracerEnabled(false), Effect.provide(store())))
