/**
 * One asynchronous write lock per database file per process. SQLite waits for another
 * connection's write lock with a *synchronous* busy handler; in one Node process that would stall
 * the event loop the lock holder needs to reach COMMIT, so connections of the same process queue
 * here instead. Other processes are still handled by `busy_timeout`.
 */
import { resolve } from "node:path"
import * as Lock from "./Lock.js"

const locks = new Map<string, Lock.Lock>()

/** A database only this connection can see (`:memory:`, or "" for a temporary file). */
const isPrivate = (filename: string) => filename === ":memory:" || filename === ""

export const writeLockFor = (filename: string): Lock.Lock => {
  if (isPrivate(filename)) return Lock.make()
  const key = resolve(filename)
  const existing = locks.get(key)
  if (existing !== undefined) return existing
  const lock = Lock.make()
  locks.set(key, lock)
  return lock
}
