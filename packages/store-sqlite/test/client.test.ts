/**
 * The store's SQLite client: a statement outside a transaction runs in the same step as it is
 * asked for (no semaphore hop), yet never inside another fiber's open transaction.
 */
import { Transactor } from "@costline/core"
import { SqliteStore } from "@costline/store-sqlite"
import { SqlClient } from "@effect/sql/SqlClient"
import { expect, it } from "@effect/vitest"
import { Deferred, Effect, Fiber, Layer, RuntimeFlags, RuntimeFlagsPatch, Supervisor } from "effect"

const store = SqliteStore.layer({ filename: ":memory:" })

/** Counts the effects the fiber runtime interprets: what a statement costs, without a clock. */
class Steps extends Supervisor.AbstractSupervisor<number> {
  count = 0
  get value() {
    return Effect.sync(() => this.count)
  }
  override onEffect() {
    this.count++
  }
}

const stepsOf = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.gen(function*() {
    const steps = new Steps()
    yield* effect.pipe(Effect.supervised(steps), Effect.withRuntimeFlagsPatch(RuntimeFlagsPatch.enable(RuntimeFlags.OpSupervision)))
    return steps.count
  })

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
