/**
 * One asynchronous write lock per database file per process. SQLite waits for another
 * connection's write lock with a *synchronous* busy handler; in one Node process that would stall
 * the event loop the lock holder needs to reach COMMIT, so connections of the same process queue
 * here instead. Other processes are still handled by `busy_timeout`.
 */
import { Effect } from "effect"
import { resolve } from "node:path"

const locks = new Map<string, Effect.Semaphore>()

/** A database only this connection can see (`:memory:`, or "" for a temporary file). */
const isPrivate = (filename: string) => filename === ":memory:" || filename === ""

export const writeLockFor = (filename: string): Effect.Semaphore => {
  if (isPrivate(filename)) return Effect.unsafeMakeSemaphore(1)
  const key = resolve(filename)
  const existing = locks.get(key)
  if (existing !== undefined) return existing
  const lock = Effect.unsafeMakeSemaphore(1)
  locks.set(key, lock)
  return lock
}
