/**
 * A Postgres server of a test file's own, which the test may stop and start again (the fault
 * tests take the store away under a running API). Data survives a restart; the directory is
 * removed when the scope closes.
 */
import { Effect, type Scope } from "effect"
import { startPostgres as startServer } from "../../../../test-support/postgres/server.js"

export interface Postgres {
  /** `postgres://…/postgres` on the server. */
  readonly url: string
  readonly stop: Effect.Effect<void>
  readonly start: Effect.Effect<void>
}

/** Starts a fresh server; stopped and deleted when the scope closes. */
export const startPostgres: Effect.Effect<Postgres, never, Scope.Scope> = Effect.gen(function*() {
  const server = yield* Effect.acquireRelease(
    Effect.promise(() => startServer()),
    (server) => Effect.promise(() => server.destroy())
  )
  return {
    url: server.url,
    stop: Effect.promise(() => server.stop()),
    start: Effect.promise(() => server.start())
  }
})
