/**
 * Long computations in bounded slices, so one request never holds the event loop: the work runs
 * until a slice's time is spent, then gives the loop a turn (other requests, `/healthz`, timers)
 * before going on.
 *
 * Effect's own yielding is not enough: a fiber that yields is resumed from a microtask, which
 * runs before any I/O. A turn of the loop needs a macrotask; `setImmediate` runs right after the
 * loop has polled for I/O, so the pause costs next to nothing when nothing else is waiting. The
 * pause is also where an interrupted computation (a deadline, a closed connection) stops.
 */
import { Effect } from "effect"

/**
 * Long enough to keep the cost of pausing negligible, short enough to keep latency low.
 * @since 0.1.0
 * @category constants
 */
export const DEFAULT_SLICE_MILLIS = 10

/**
 * One turn of the event loop; interruptible.
 * @since 0.1.0
 * @category utils
 */
export const yieldToEventLoop: Effect.Effect<void> = Effect.async<void>((resume) => {
  const handle = setImmediate(() => resume(Effect.void))
  return Effect.sync(() => clearImmediate(handle))
})

/**
 * @since 0.1.0
 * @category models
 */
export interface Slicer {
  /** Whether the current slice has run its time: call `pause` before doing more. */
  readonly due: () => boolean
  /** Gives the event loop a turn and starts the next slice. */
  readonly pause: Effect.Effect<void>
}

/**
 * @since 0.1.0
 * @category constructors
 */
export const makeSlicer = (millis: number = DEFAULT_SLICE_MILLIS): Slicer => {
  let started = performance.now()
  return {
    due: () => performance.now() - started >= millis,
    pause: Effect.zipRight(yieldToEventLoop, Effect.sync(() => {
      started = performance.now()
    }))
  }
}

/**
 * Applies `f` to every item, pausing whenever the slice is due (checked after each item, so a
 * slice overruns by at most one item's work).
 * @since 0.1.0
 * @category utils
 */
export const forEachSliced = <A>(slicer: Slicer, items: ReadonlyArray<A>, f: (item: A) => void): Effect.Effect<void> => {
  const from = (start: number): Effect.Effect<void> =>
    Effect.suspend(() => {
      for (let i = start; i < items.length; i++) {
        f(items[i]!)
        if (slicer.due()) return Effect.zipRight(slicer.pause, from(i + 1))
      }
      return Effect.void
    })
  return from(0)
}
