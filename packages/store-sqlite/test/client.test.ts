/**
 * The store's SQLite client: a statement outside a transaction runs in the same step as it is
 * asked for (no semaphore hop), yet never inside another fiber's open transaction.
 */
import { Transactor } from "@costline/core"
import { stepsOf } from "@costline/store-contract"
import { StatementRunner } from "@costline/store-sql"
import { SqliteStore } from "@costline/store-sqlite"
import { SqlClient } from "@effect/sql/SqlClient"
import { expect, it } from "@effect/vitest"
import { Deferred, Effect, Fiber, Layer } from "effect"

const store = SqliteStore.layer({ filename: ":memory:" })

it.effect("a statement outside a transaction takes no semaphore and no cache lookup", () =>
  Effect.gen(function*() {
    const sql = yield* SqlClient
    yield* sql`SELECT 1`
    const floor = yield* stepsOf(Effect.void)
    // @effect/sql's own path (span, scope, compile) is ~58 steps; @effect/sql-sqlite-node's
    // semaphore and effect/Cache lookup added ~40 more to every statement.
    expect((yield* stepsOf(sql`SELECT 1`)) - floor).toBeLessThanOrEqual(65)
  }).pipe(Effect.provide(Layer.fresh(store))))

it.live("while another fiber's transaction is open, a statement outside it waits and is not part of it", () =>
  Effect.gen(function*() {
    const transactor = yield* Transactor.Transactor
    const sql = yield* SqlClient
    yield* sql`CREATE TABLE notes (text TEXT NOT NULL)`
    const inside = yield* Deferred.make<void>()
    const finish = yield* Deferred.make<void>()
    const transaction = yield* transactor.withTransaction(
      Effect.gen(function*() {
        yield* sql`INSERT INTO notes VALUES ('uncommitted')`
        yield* Deferred.succeed(inside, undefined)
        yield* Deferred.await(finish)
        return yield* Effect.fail("rolled back")
      })
    ).pipe(Effect.flip, Effect.fork)
    yield* Deferred.await(inside)

    const read = yield* Effect.fork(sql<{ readonly text: string }>`SELECT text FROM notes`)
    const write = yield* Effect.fork(sql`INSERT INTO notes VALUES ('outside')`)
    yield* Effect.yieldNow()
    // Neither ran on the connection the transaction holds.
    expect(yield* Fiber.poll(read)).toEqual(expect.objectContaining({ _tag: "None" }))
    yield* Deferred.succeed(finish, undefined)
    expect(yield* Fiber.join(transaction)).toBe("rolled back")
    yield* Fiber.join(write)
    // The read ran after the rollback (it saw no uncommitted row); the write survived it.
    expect((yield* Fiber.join(read)).map((row) => row.text)).not.toContain("uncommitted")
    expect(yield* sql`SELECT text FROM notes`).toEqual([{ text: "outside" }])
  }).pipe(Effect.provide(Layer.fresh(store))))

it.effect("more distinct statements than the cache keeps all run, and run again", () =>
  Effect.gen(function*() {
    const sql = yield* SqlClient
    const texts = Array.from({ length: 450 }, (_, index) => `SELECT ${index} AS n`)
    for (const round of [1, 2]) {
      const results = yield* Effect.forEach(texts, (text) => sql.unsafe<{ readonly n: number }>(text))
      expect(results.map(([row]) => row!.n), `round ${round}`).toEqual(texts.map((_, index) => index))
    }
  }).pipe(Effect.provide(Layer.fresh(store))))

it.effect("with tracing off, a read through the store's StatementRunner runs straight on the connection; on, through @effect/sql's span", () =>
  Effect.gen(function*() {
    const sql = yield* SqlClient
    const { run } = yield* StatementRunner.StatementRunner
    yield* sql`SELECT 1`
    const floor = yield* stepsOf(Effect.void)
    const untraced = (yield* stepsOf(run(sql`SELECT 1`)).pipe(Effect.withTracerEnabled(false))) - floor
    const traced = (yield* stepsOf(run(sql`SELECT 1`)).pipe(Effect.withTracerEnabled(true))) - floor
    expect(untraced).toBeLessThanOrEqual(10)
    // Traced, the span and the scoped acquisition are all there.
    expect(traced).toBeGreaterThanOrEqual(40)
    expect(yield* run(sql<{ readonly n: number }>`SELECT 2 AS n`).pipe(Effect.withTracerEnabled(false))).toEqual([{ n: 2 }])
  }).pipe(Effect.provide(Layer.fresh(store))))

it.live("a direct read runs on its transaction's connection inside one, and waits for another fiber's outside it", () =>
  Effect.gen(function*() {
    const transactor = yield* Transactor.Transactor
    const sql = yield* SqlClient
    const { run } = yield* StatementRunner.StatementRunner
    const texts = (rows: ReadonlyArray<{ readonly text: string }>) => rows.map((row) => row.text)
    yield* sql`CREATE TABLE notes (text TEXT NOT NULL)`
    const inside = yield* Deferred.make<ReadonlyArray<string>>()
    const finish = yield* Deferred.make<void>()
    const transaction = yield* transactor.withTransaction(
      Effect.gen(function*() {
        yield* sql`INSERT INTO notes VALUES ('uncommitted')`
        yield* Deferred.succeed(inside, texts(yield* run(sql<{ readonly text: string }>`SELECT text FROM notes`)))
        yield* Deferred.await(finish)
        return yield* Effect.fail("rolled back")
      })
    ).pipe(Effect.flip, Effect.fork)
    // Inside, the read saw the transaction's own write.
    expect(yield* Deferred.await(inside)).toEqual(["uncommitted"])
    const outside = yield* Effect.fork(run(sql<{ readonly text: string }>`SELECT text FROM notes`))
    yield* Effect.yieldNow()
    expect(yield* Fiber.poll(outside)).toEqual(expect.objectContaining({ _tag: "None" }))
    yield* Deferred.succeed(finish, undefined)
    expect(yield* Fiber.join(transaction)).toBe("rolled back")
    expect(texts(yield* Fiber.join(outside))).toEqual([])
  }).pipe(Effect.withTracerEnabled(false), Effect.provide(Layer.fresh(store))))
