/**
 * A lock fibers hold one at a time, with a synchronous try beside the waiting take. A write
 * transaction's way in needs two of them (the process's write lock on the file, the connection)
 * and, when both are free (nearly always), takes both in one synchronous step or neither. Effect's
 * `Semaphore` offers only effects for that (`withPermitsIfAvailable`: a mask, a finalizer and a
 * release effect per permit): ~50 of a PATCH's 198 interpreter steps, and ~7% of its CPU in
 * process when both were taken out (issue 19).
 *
 * A release wakes every waiter and each tries again, as `Semaphore` does: a waiter woken and
 * interrupted before it runs takes nothing, and the others are not left asleep behind it.
 */
import { Effect } from "effect"

export interface Lock {
  /** Whether a holder has it. */
  readonly held: boolean
  /** Fibers waiting in `take` (what `/metrics` shows of the write lock). */
  readonly waiting: number
  /** Takes it when it is free, now; false, having taken nothing, when it is held. */
  readonly tryTake: () => boolean
  /**
   * Takes it, waiting while it is held. Run it inside `Effect.uninterruptibleMask`, whose
   * `restore` the wait runs under: interruptible exactly when the caller was, while nothing
   * between taking the lock and registering its release can be (a lock taken must be given back).
   */
  readonly take: (restore: Restore) => Effect.Effect<void>
  /** Gives it back; every fiber waiting tries again. */
  readonly release: () => void
  /** `effect` with the lock held, given back however `effect` ends. */
  readonly withLock: <A, E, R>(effect: Effect.Effect<A, E, R>) => Effect.Effect<A, E, R>
}

/** An `Effect.uninterruptibleMask`'s `restore`. */
export type Restore = <A, E, R>(effect: Effect.Effect<A, E, R>) => Effect.Effect<A, E, R>

export const make = (): Lock => {
  let held = false
  const waiters = new Set<() => void>()
  const tryTake = () => {
    if (held) return false
    held = true
    return true
  }
  const release = () => {
    held = false
    if (waiters.size === 0) return
    const woken = [...waiters]
    waiters.clear()
    for (const wake of woken) wake()
  }
  // Until the next release; an interrupted waiter leaves the set.
  const wait = Effect.async<void>((resume) => {
    const wake = () => resume(Effect.void)
    waiters.add(wake)
    return Effect.sync(() => void waiters.delete(wake))
  })
  const take = (restore: Restore): Effect.Effect<void> => {
    const attempt: Effect.Effect<void> = Effect.suspend(() => (tryTake() ? Effect.void : Effect.zipRight(restore(wait), attempt)))
    return attempt
  }
  const given = Effect.sync(release)
  return {
    get held() {
      return held
    },
    get waiting() {
      return waiters.size
    },
    tryTake,
    take,
    release,
    withLock: (effect) => Effect.uninterruptibleMask((restore) => Effect.zipRight(take(restore), Effect.ensuring(restore(effect), given)))
  }
}
