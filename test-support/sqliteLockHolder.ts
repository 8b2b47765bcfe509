/**
 * Another OS process that takes a SQLite file's write lock (BEGIN IMMEDIATE) and holds it until
 * told to commit, as the CLI would while a server runs on the same file.
 */
import { Deferred, Effect } from "effect"
import { spawn } from "node:child_process"
import { createRequire } from "node:module"

const LOCK_HOLDER = `
const Database = require(process.argv[1])
const db = new Database(process.argv[2])
db.exec("BEGIN IMMEDIATE")
process.stdout.write("locked\\n")
process.stdin.once("data", () => { db.exec("COMMIT"); db.close(); process.exit(0) })
`

/** Resolves once the other process holds the lock; `release` commits and waits for it to exit. */
export const holdWriteLock = (filename: string) =>
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
