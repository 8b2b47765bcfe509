/**
 * A database of its own for each test file, created before the file's tests and dropped after
 * them, on the server the global setup provides.
 */
import { PgClient } from "@effect/sql-pg"
import * as Reactivity from "@effect/experimental/Reactivity"
import { Effect, Redacted } from "effect"
import { randomUUID } from "node:crypto"
import { afterAll, beforeAll, inject } from "vitest"

const runOnServer = (adminUrl: string, statement: string) =>
  Effect.flatMap(PgClient.make({ url: Redacted.make(adminUrl) }), (sql) => sql.unsafe(statement)).pipe(
    Effect.scoped,
    Effect.provide(Reactivity.layer),
    Effect.runPromise
  )

/** Registers the hooks and returns the new database's URL (usable once the file's hooks ran). */
export const useFreshDatabase = (): string => {
  const adminUrl = inject("pgAdminUrl")
  const name = `costline_test_${randomUUID().replaceAll("-", "")}`
  beforeAll(() => runOnServer(adminUrl, `CREATE DATABASE ${name}`))
  afterAll(() => runOnServer(adminUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`))
  const url = new URL(adminUrl)
  url.pathname = `/${name}`
  return url.toString()
}
