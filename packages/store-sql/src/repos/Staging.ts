/**
 * What staged imports (usage records, insights) share: each staged batch is its own short
 * transaction, and on SQLite the importer then leaves the write lock free for a moment.
 */
import type { SqlClient } from "@effect/sql/SqlClient"
import { Effect } from "effect"

/**
 * After each staged batch, SQLite's importer leaves the lock free this long. SQLite has no queue
 * for its write lock: a process that commits and begins again at once would starve the others,
 * which poll for the lock at most 10 ms apart (see store-sqlite's SqliteTransactor).
 */
export const SQLITE_LOCK_GAP_MS = 15

/** Rows a discarded import deletes per transaction: the write lock is held for milliseconds. */
export const ROWS_PER_DISCARD = 5000

/** SQLite only: a real pause (not the Effect clock, which tests may stop) that lets other processes write. */
export const leaveLockFree = (sql: SqlClient) =>
  sql.onDialectOrElse({
    sqlite: () => Effect.promise(() => new Promise<void>((resolve) => setTimeout(resolve, SQLITE_LOCK_GAP_MS))),
    orElse: () => Effect.void
  })
