/**
 * SQLite's Transactor: nested transactions are savepoints that do not outlive their success.
 * Every case runs with tracing on (`@effect/sql`'s transaction and its span) and off (the
 * server's default: costline's own, the connection layered over the caller's context).
 */
import { Transactor } from "@costline/core"
import { SqliteStore } from "@costline/store-sqlite"
import { SqlClient, TransactionConnection } from "@effect/sql/SqlClient"
import { describe, expect, it } from "@effect/vitest"
/// <reference path="../src/better-sqlite3.d.ts" />
import Sqlite from "better-sqlite3"
import { Context, Deferred, Effect, Exit, Fiber, Layer, Option } from "effect"
import { useTempDirectory } from "./support/tempDatabase.js"

const store = SqliteStore.layer({ filename: ":memory:" })
const databaseFile = useTempDirectory()

describe.each([
  ["on", Layer.empty],
  ["off", Layer.setTracerEnabled(false)]
] as const)("with tracing %s", (tracingName, tracing) => {
  const provided = <A, E>(effect: Effect.Effect<A, E, Transactor.Transactor | SqlClient>) =>
    effect.pipe(Effect.provide(Layer.fresh(store)), Effect.provide(tracing))

  it.effect("a nested transaction that succeeded leaves no savepoint open: one long import stays linear", () =>
    provided(Effect.gen(function*() {
      const transactor = yield* Transactor.Transactor
      const sql = yield* SqlClient
      const released = yield* transactor.withTransaction(
        Effect.gen(function*() {
          // Many nested writes, as an import of many upserts runs them.
          yield* Effect.forEach(Array.from({ length: 100 }), () =>
            transactor.withTransaction(transactor.withTransaction(sql`SELECT 1`)), { discard: true })
          // SQLite's cost per write grows with every savepoint still open: none may be.
          return yield* Effect.flip(sql.unsafe("RELEASE SAVEPOINT costline_1"))
        })
      )
      expect(String(released.cause)).toContain("no such savepoint")
    })))

  it.effect("a nested transaction that failed is rolled back alone; the outer one goes on and commits", () =>
    provided(Effect.gen(function*() {
      const transactor = yield* Transactor.Transactor
      const sql = yield* SqlClient
      yield* sql`CREATE TABLE notes (text TEXT NOT NULL)`
      yield* transactor.withTransaction(
        Effect.gen(function*() {
          yield* sql`INSERT INTO notes VALUES ('kept')`
          yield* Effect.ignore(transactor.withTransaction(Effect.zipRight(sql`INSERT INTO notes VALUES ('undone')`, Effect.fail("no"))))
          // Back in the outer transaction's context: its connection, at its depth.
          const depth = Option.map(Context.getOption(yield* Effect.context<never>(), TransactionConnection), ([, depth]) => depth)
          expect(depth).toEqual(Option.some(0))
          yield* sql`INSERT INTO notes VALUES ('also kept')`
        })
      )
      expect(yield* sql`SELECT text FROM notes ORDER BY rowid`).toEqual([{ text: "kept" }, { text: "also kept" }])
    })))

  it.effect("commits on success, rolls back on a failure, a defect or an interruption, and frees the connection each time", () =>
    provided(Effect.gen(function*() {
      const transactor = yield* Transactor.Transactor
      const sql = yield* SqlClient
      yield* sql`CREATE TABLE notes (text TEXT NOT NULL)`
      const inside = yield* transactor.withTransaction(
        Effect.zipRight(sql`INSERT INTO notes VALUES ('committed')`, Effect.context<never>())
      )
      // The connection is in the transaction's context, and only there.
      expect(Context.getOption(inside, TransactionConnection)._tag).toBe("Some")
      expect(Context.getOption(yield* Effect.context<never>(), TransactionConnection)._tag).toBe("None")

      const failed = yield* Effect.exit(transactor.withTransaction(Effect.zipRight(sql`INSERT INTO notes VALUES ('failed')`, Effect.fail("no"))))
      expect(Exit.isFailure(failed)).toBe(true)
      const died = yield* Effect.exit(transactor.withTransaction(Effect.zipRight(sql`INSERT INTO notes VALUES ('died')`, Effect.die("boom"))))
      expect(Exit.isFailure(died)).toBe(true)
      // A transaction that failed or died gives its caller back the context it had.
      expect(Context.getOption(yield* Effect.context<never>(), TransactionConnection)._tag).toBe("None")
      const started = yield* Effect.makeLatch()
      const interrupted = yield* Effect.fork(transactor.withTransaction(
        sql`INSERT INTO notes VALUES ('interrupted')`.pipe(Effect.zipRight(started.open), Effect.zipRight(Effect.never))
      ))
      yield* started.await
      yield* Fiber.interrupt(interrupted)

      // Each rollback released the connection: another transaction runs, and sees only the commit.
      yield* transactor.withTransaction(sql`INSERT INTO notes VALUES ('after')`)
      expect(yield* sql`SELECT text FROM notes ORDER BY rowid`).toEqual([{ text: "committed" }, { text: "after" }])
    })))
  // A transaction takes the write lock and the connection at once when both are free; one that
  // finds either held waits for it (the scoped way in), as one does for another process's lock.
  it.live("a transaction that finds another fiber's transaction open waits for it, then commits after it", () =>
    provided(Effect.gen(function*() {
      const transactor = yield* Transactor.Transactor
      const sql = yield* SqlClient
      yield* sql`CREATE TABLE notes (text TEXT NOT NULL)`
      const inside = yield* Deferred.make<void>()
      const finish = yield* Deferred.make<void>()
      const first = yield* Effect.fork(transactor.withTransaction(
        sql`INSERT INTO notes VALUES ('first')`.pipe(Effect.zipRight(Deferred.succeed(inside, undefined)), Effect.zipRight(Deferred.await(finish)))
      ))
      yield* Deferred.await(inside)
      const second = yield* Effect.fork(transactor.withTransaction(sql`INSERT INTO notes VALUES ('second')`))
      yield* Effect.yieldNow()
      expect(Option.isNone(yield* Fiber.poll(second))).toBe(true)
      yield* Deferred.succeed(finish, undefined)
      yield* Fiber.join(first)
      yield* Fiber.join(second)
      expect(yield* sql`SELECT text FROM notes ORDER BY rowid`).toEqual([{ text: "first" }, { text: "second" }])
    })))

  it.live("a transaction that finds another connection holding the database's write lock waits and commits once it is free", () =>
    Effect.gen(function*() {
      const filename = databaseFile(`held-elsewhere-${tracingName}.db`)
      const other = new Sqlite(filename)
      yield* Effect.addFinalizer(() => Effect.sync(() => other.close()))
      const exec = (...statements: Array<string>) => statements.forEach((statement) => other.prepare(statement).run())
      other.pragma("journal_mode = WAL")
      exec("CREATE TABLE notes (text TEXT NOT NULL)")
      // Opened (and migrated) before the other connection takes the lock.
      const opened = yield* Layer.build(Layer.merge(SqliteStore.layer({ filename, busyTimeout: "10 seconds" }), tracing))
      yield* Effect.gen(function*() {
        // Another process's write transaction: its BEGIN IMMEDIATE refuses ours (SQLITE_BUSY).
        exec("BEGIN IMMEDIATE", "INSERT INTO notes VALUES ('other')")
        const transactor = yield* Transactor.Transactor
        const sql = yield* SqlClient
        const ours = yield* Effect.fork(transactor.withTransaction(sql`INSERT INTO notes VALUES ('ours')`))
        // Refused and retrying, not failed: the lock is still the other connection's.
        yield* Effect.sleep("30 millis")
        expect(Option.isNone(yield* Fiber.poll(ours))).toBe(true)
        exec("COMMIT")
        yield* Fiber.join(ours)
        expect(yield* sql`SELECT text FROM notes ORDER BY rowid`).toEqual([{ text: "other" }, { text: "ours" }])
      }).pipe(Effect.provide(opened))
    }).pipe(Effect.scoped))
})
