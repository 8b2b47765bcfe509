/**
 * One asynchronous write lock per database file per process. SQLite waits for another
 * connection's write lock with a *synchronous* busy handler; in one Node process that would stall
 * the event loop the lock holder needs to reach COMMIT, so connections of the same process queue
 * here instead. Other processes are still handled by `busy_timeout`.
 */
import { Effect, type Option } from "effect"
import { resolve } from "node:path"

const locks = new Map<string, Effect.Semaphore>()

/** What `/metrics` shows of a lock: held or not, and how many transactions wait for it. */
export interface LockUsage {
  held: number
  waiting: number
}
const usages = new WeakMap<Effect.Semaphore, LockUsage>()

/** The counters of `lock` (kept by `acquire`). */
export const usageOf = (lock: Effect.Semaphore): LockUsage => {
  const existing = usages.get(lock)
  if (existing !== undefined) return existing
  const usage = { held: 0, waiting: 0 }
  usages.set(lock, usage)
  return usage
}

const releases = new WeakMap<Effect.Semaphore, Effect.Effect<void>>()

/**
 * Takes the lock, counting the wait and the hold; the returned effect releases it. Run it
 * uninterruptibly (the Transactor does): a permit taken must reach its release. Built of as few
 * effects as it can be (issue 19): every write transaction of the process runs it.
 */
export const acquire = (lock: Effect.Semaphore): Effect.Effect<Effect.Effect<void>> => {
  const usage = usageOf(lock)
  let release = releases.get(lock)
  if (release === undefined) {
    release = Effect.zipRight(Effect.sync(() => void usage.held--), lock.release(1))
    releases.set(lock, release)
  }
  const held = release
  return Effect.suspend(() => {
    usage.waiting++
    return Effect.ensuring(lock.take(1), Effect.sync(() => void usage.waiting--))
  }).pipe(Effect.map(() => {
    usage.held++
    return held
  }))
}

/**
 * `effect` with the lock held, when it is free right now; None, without waiting, when it is not.
 * Counted as `acquire` counts its hold (a transaction's fast way in, `SqliteTransactor`).
 */
export const ifFree = <A, E, R>(lock: Effect.Semaphore, effect: Effect.Effect<A, E, R>): Effect.Effect<Option.Option<A>, E, R> => {
  const usage = usageOf(lock)
  return lock.withPermitsIfAvailable(1)(Effect.suspend(() => {
    usage.held++
    return Effect.ensuring(effect, Effect.sync(() => void usage.held--))
  }))
}

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
