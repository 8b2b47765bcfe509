/**
 * Read, check, then write only if the row is still as read: a compare-and-set in one statement.
 * When another writer got in between, the attempt is run again from a fresh read, so a caller
 * without a precondition still gets its change applied, and one with `If-Match` sees the new state
 * and fails its check.
 */
import { Effect } from "effect"
import { Conflict } from "./Errors.js"

/** An attempt's answer when its compare-and-set found the row changed. */
export const STALE = Symbol.for("@costline/core/CompareAndSet/stale")
export type Stale = typeof STALE

// Each miss means another writer succeeded, so up to this many concurrent writers of one row never see Conflict.
const MAX_ATTEMPTS = 10

export const untilWritten = <A, E, R>(attempt: Effect.Effect<A | Stale, E, R>, what: string): Effect.Effect<A, E | Conflict, R> => {
  const loop = (left: number): Effect.Effect<A, E | Conflict, R> =>
    Effect.flatMap(attempt, (result) => {
      if (result !== STALE) return Effect.succeed(result as A)
      return left > 1
        ? loop(left - 1)
        : Effect.fail(new Conflict({ message: `${what} is being changed concurrently; retry` }))
    })
  return loop(MAX_ATTEMPTS)
}
