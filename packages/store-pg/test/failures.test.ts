/** What callers see when Postgres cannot serve them: typed StoreUnavailable, never a partial write. */
import { Core, Transactor } from "@costline/core"
import { drainExport, freshOrganization, recordChange } from "@costline/store-contract"
import { PgStore } from "@costline/store-pg"
import { SqlClient } from "@effect/sql/SqlClient"
import { expect, it } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { createServer } from "node:net"
import { useFreshDatabase } from "./support/database.js"

const url = useFreshDatabase()

const open = (options: Omit<PgStore.PgStoreOptions, "url"> = {}) =>
  Layer.build(Core.layer.pipe(Layer.provideMerge(PgStore.layer({ url, ...options }))))

/** A port nobody listens on. */
const closedPort = Effect.async<number>((resume) => {
  const server = createServer().listen(0, "127.0.0.1", () => {
    const address = server.address()
    server.close(() => resume(Effect.succeed(typeof address === "object" && address !== null ? address.port : 1)))
  })
})

it.live("an unreachable server is StoreUnavailable, and the message does not echo the URL", () =>
  Effect.gen(function*() {
    const port = yield* closedPort
    const unreachable = `postgres://costline:secret-password@127.0.0.1:${port}/costline`
    const error = yield* Effect.flip(Layer.build(PgStore.layer({ url: unreachable, connectTimeout: "2 seconds" })))
    expect(error._tag).toBe("StoreUnavailable")
    expect(error.message).not.toContain("secret-password")
  }).pipe(Effect.scoped))

it.live("a connection URL that is not a URL is StoreUnavailable, not a crash", () =>
  Effect.gen(function*() {
    const error = yield* Effect.flip(Layer.build(PgStore.layer({ url: "postgres://costline:pw@[bad" })))
    expect(error._tag).toBe("StoreUnavailable")
    expect(error.message).not.toContain("pw")
  }).pipe(Effect.scoped))

it.live("a statement running past statementTimeout is cancelled and reported as StoreUnavailable", () =>
  Effect.gen(function*() {
    yield* open()
    // Migrated already: only the statement below meets the short timeout.
    const store = yield* open({ statementTimeout: "100 millis", migrate: false })
    const slow = Effect.flatMap(SqlClient, (sql) => sql`SELECT pg_sleep(10)`)
    const error = yield* Effect.flip(Effect.flatMap(Transactor.Transactor, (tx) => tx.withTransaction(slow)).pipe(Effect.provide(store)))
    expect(error._tag).toBe("StoreUnavailable")
  }).pipe(Effect.scoped))

it.live("a connection lost mid-transaction is StoreUnavailable and nothing of the transaction is kept", () =>
  Effect.gen(function*() {
    const store = yield* open()
    const admin = yield* open()
    const organization = yield* Effect.provide(freshOrganization, store)
    const terminate = (pid: number) =>
      Effect.flatMap(SqlClient, (sql) => sql`SELECT pg_terminate_backend(${pid}, 5000)`).pipe(Effect.provide(admin))

    const error = yield* Effect.gen(function*() {
      const sql = yield* SqlClient
      return yield* (yield* Transactor.Transactor).withTransaction(Effect.gen(function*() {
        yield* recordChange(organization.id, "before")
        const [{ pid }] = yield* sql<{ pid: number }>`SELECT pg_backend_pid() AS pid`
        yield* terminate(pid).pipe(Effect.orDie)
        yield* recordChange(organization.id, "after")
      }))
    }).pipe(Effect.provide(store), Effect.flip)
    expect(error._tag).toBe("StoreUnavailable")
    expect((yield* Effect.provide(drainExport(organization.id), store)).records).toEqual([])
  }).pipe(Effect.scoped))
