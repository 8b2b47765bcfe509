/** What callers see when SQLite cannot serve them: typed StoreUnavailable, never a partial write. */
import { CoreLive, OrganizationId, Organizations } from "@costline/core"
import { freshOrganization } from "@costline/core/testing"
import { SqliteStore } from "@costline/store-sqlite"
import { expect, it } from "@effect/vitest"
import { Deferred, Effect, Layer } from "effect"
import { spawn } from "node:child_process"
import { createRequire } from "node:module"
import { useTempDirectory } from "./support/tempDatabase.js"

const databaseFile = useTempDirectory()

/**
 * Another OS process that takes the database's write lock and holds it until told to commit,
 * as the CLI would while the server runs.
 */
const LOCK_HOLDER = `
const Database = require(process.argv[1])
const db = new Database(process.argv[2])
db.exec("BEGIN IMMEDIATE")
process.stdout.write("locked\\n")
process.stdin.once("data", () => { db.exec("COMMIT"); db.close(); process.exit(0) })
`

const holdWriteLock = (filename: string) =>
  Effect.acquireRelease(
    Effect.gen(function*() {
      const driver = createRequire(import.meta.url).resolve("better-sqlite3")
      const child = spawn(process.execPath, ["-e", LOCK_HOLDER, driver, filename])
      const locked = yield* Deferred.make<void, Error>()
      const exited = yield* Deferred.make<void>()
      child.stdout.on("data", () => Deferred.unsafeDone(locked, Effect.void))
      child.on("exit", (code) => {
        Deferred.unsafeDone(locked, Effect.fail(new Error(`lock holder exited with ${code}`)))
        Deferred.unsafeDone(exited, Effect.void)
      })
      yield* Deferred.await(locked)
      // Released by the test, or by the scope if the test fails first: only once either way.
      const release = yield* Effect.once(Effect.sync(() => child.stdin.write("commit\n")))
      return { release: Effect.zipRight(release, Deferred.await(exited)) }
    }),
    (holder) => holder.release
  )

it.live("a file that cannot be opened is StoreUnavailable", () =>
  Effect.gen(function*() {
    const error = yield* Effect.flip(Layer.build(SqliteStore.layer({ filename: databaseFile("missing/dir/x.db") })))
    expect(error._tag).toBe("StoreUnavailable")
  }).pipe(Effect.scoped))

it.live("while another process holds the write lock, reads go on and a write is StoreUnavailable after busyTimeout", () =>
  Effect.gen(function*() {
    const filename = databaseFile("locked.db")
    const store = yield* Layer.build(
      CoreLive.pipe(Layer.provideMerge(SqliteStore.layer({ filename, busyTimeout: "50 millis" })))
    )
    const organizations = yield* Effect.provide(Organizations, store)
    const existing = yield* Effect.provide(freshOrganization, store)

    const holder = yield* holdWriteLock(filename)
    expect(yield* organizations.get(existing.id)).toEqual(existing)
    const refused = yield* Effect.flip(organizations.create({ id: "blocked", name: "Blocked" }))
    expect(refused._tag).toBe("StoreUnavailable")

    yield* holder.release
    expect((yield* Effect.flip(organizations.get(OrganizationId.make("blocked"))))._tag).toBe("NotFound")
    yield* organizations.create({ id: "blocked", name: "Blocked" })
  }).pipe(Effect.scoped))
