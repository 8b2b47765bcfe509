/**
 * `COSTLINE_KEY_CACHE=off`: on Postgres the store opens no credential watcher, so core keeps no
 * verified keys (behind pgbouncer in transaction mode `LISTEN` does not work). Unset, it does.
 * `COSTLINE_PREPARED_STATEMENTS=off`: the store's connections prepare no named statements (the
 * same pooler loses them between connections). Unset, they do.
 */
import { storeLayer } from "@costline/cli"
import { CredentialChanges } from "@costline/core"
import { SqlClient } from "@effect/sql/SqlClient"
import { Context, Effect, Layer, Option } from "effect"
import { afterAll, beforeAll, expect, it, vi } from "vitest"
import { type PostgresServer, startPostgres } from "../../../test-support/postgres/server.js"

let server: PostgresServer
beforeAll(async () => {
  server = await startPostgres()
})
afterAll(async () => {
  await server?.destroy()
})

/** Whether the store layer the CLI builds provides core's CredentialChanges. */
const watches = () =>
  Effect.runPromise(
    Layer.build(storeLayer({ _tag: "postgres", url: server.url })).pipe(
      Effect.map((context) => Option.isSome(Context.getOption(context as Context.Context<never>, CredentialChanges.CredentialChanges))),
      Effect.scoped
    )
  )

/** `read` with the environment variable `name` set to `value`. */
const withEnv = async <A>(name: string, value: string, read: () => Promise<A>): Promise<A> => {
  vi.stubEnv(name, value)
  try {
    return await read()
  } finally {
    vi.unstubAllEnvs()
  }
}

it("COSTLINE_KEY_CACHE=off turns the Postgres credential watcher (and the key cache) off; unset, it is on", async () => {
  expect(await withEnv("COSTLINE_KEY_CACHE", "off", watches)).toBe(false)
  expect(await withEnv("COSTLINE_KEY_CACHE", "", watches)).toBe(true)
})

/** Whether a connection of the store the CLI builds holds a named statement after running a query with parameters. */
const prepares = () =>
  Effect.runPromise(
    Effect.gen(function*() {
      const sql = yield* SqlClient
      return yield* sql.withTransaction(Effect.gen(function*() {
        yield* sql.unsafe("SELECT $1::int AS one", [1])
        return yield* sql.unsafe<{ readonly statement: string }>("SELECT statement FROM pg_prepared_statements")
      }))
    }).pipe(
      Effect.provide(storeLayer({ _tag: "postgres", url: server.url }) as Layer.Layer<SqlClient>),
      Effect.map((rows) => rows.some((row) => row.statement === "SELECT $1::int AS one"))
    )
  )

it("COSTLINE_PREPARED_STATEMENTS=off sends Postgres queries unnamed; unset, they are prepared once per connection", async () => {
  expect(await withEnv("COSTLINE_PREPARED_STATEMENTS", "off", prepares)).toBe(false)
  expect(await withEnv("COSTLINE_PREPARED_STATEMENTS", "", prepares)).toBe(true)
})
