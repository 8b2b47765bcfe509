/**
 * Core's `CredentialChanges` on SQLite: `PRAGMA data_version` on a connection of its own, which
 * changes whenever any other connection — this process's own, or another process's (the CLI
 * revoking a key) — commits to the file. Read on every request, it costs about a microsecond
 * (better-sqlite3, a prepared statement, no `@effect/sql`), and a revocation is seen by the very
 * next request on every process. Any commit counts, so a write also sends keys to be verified
 * again: correct, merely less cached. `:memory:` databases are private to one connection, so
 * nothing is cached on them.
 */
import { CredentialChanges } from "@costline/core"
import Database from "better-sqlite3"
import { Effect, Layer } from "effect"
import { isFile } from "./DatabaseFile.js"

export const layer = (filename: string): Layer.Layer<never> | Layer.Layer<CredentialChanges> =>
  !isFile(filename) ? Layer.empty : Layer.scoped(
    CredentialChanges,
    Effect.map(
      Effect.acquireRelease(
        Effect.sync(() => new Database(filename, { fileMustExist: true })),
        (db) => Effect.sync(() => db.close())
      ),
      (db) => {
        const dataVersion = db.prepare("PRAGMA data_version").pluck()
        let local = 0
        return CredentialChanges.of({
          stamp: () => {
            try {
              return (dataVersion.get() as number) + local * 2 ** 32
            } catch {
              return undefined
            }
          },
          changed: () => void local++
        })
      }
    ).pipe(
      // A file the watcher cannot open only means nothing is cached.
      Effect.catchAllDefect(() => Effect.succeed(CredentialChanges.of({ stamp: () => undefined, changed: () => {} })))
    )
  )
