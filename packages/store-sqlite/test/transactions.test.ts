/** SQLite's Transactor: nested transactions are savepoints that do not outlive their success. */
import { Transactor } from "@costline/core"
import { SqliteStore } from "@costline/store-sqlite"
import { SqlClient } from "@effect/sql/SqlClient"
import { expect, it } from "@effect/vitest"
import { Effect, Layer } from "effect"

const store = SqliteStore.layer({ filename: ":memory:" })

it.effect("a nested transaction that succeeded leaves no savepoint open: one long import stays linear", () =>
  Effect.gen(function*() {
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
  }).pipe(Effect.provide(store)))

it.effect("a nested transaction that failed is rolled back alone; the outer one goes on and commits", () =>
  Effect.gen(function*() {
    const transactor = yield* Transactor.Transactor
    const sql = yield* SqlClient
    yield* sql`CREATE TABLE notes (text TEXT NOT NULL)`
    yield* transactor.withTransaction(
      Effect.gen(function*() {
        yield* sql`INSERT INTO notes VALUES ('kept')`
        yield* Effect.ignore(transactor.withTransaction(Effect.zipRight(sql`INSERT INTO notes VALUES ('undone')`, Effect.fail("no"))))
        yield* sql`INSERT INTO notes VALUES ('also kept')`
      })
    )
    expect(yield* sql`SELECT text FROM notes ORDER BY rowid`).toEqual([{ text: "kept" }, { text: "also kept" }])
  }).pipe(Effect.provide(Layer.fresh(store))))
