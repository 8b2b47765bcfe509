/**
 * The one way a versioned aggregate changes: read its current state, check the precondition
 * against its stored ETag, then write with a compare-and-set on that ETag (one statement,
 * `UPDATE … WHERE etag = ?`), which answers written, stale (the row changed since the read) or
 * missing (it is gone). A stale or missing write runs the whole attempt again from a fresh read,
 * which then fails its check (412), finds nothing (404) or writes: so a change with no `If-Match`,
 * or with `*`, applies over concurrent writers, and one naming an ETag sees the new state and
 * fails. Reads that hold the row until the transaction ends (insights' `lockById`) make a rerun
 * rare; without them each miss means another writer succeeded, and the reruns are bounded.
 */
import { Effect } from "effect"
import { Conflict } from "../Errors.js"
import * as Precondition from "../Precondition.js"

/** What one compare-and-set did. */
export type Outcome<A> =
  | { readonly _tag: "Written"; readonly value: A }
  | { readonly _tag: "Stale" }
  | { readonly _tag: "Missing" }

/** The write landed (or nothing needed writing): `value` is the aggregate's new state. */
export const written = <A>(value: A): Outcome<A> => ({ _tag: "Written", value })
/**
 * No row had the ETag the attempt read: another writer came first, or the row is gone (stores
 * whose compare-and-set cannot tell these apart answer this; the fresh read does).
 */
export const stale: Outcome<never> = { _tag: "Stale" }
/** The row is gone. */
export const missing: Outcome<never> = { _tag: "Missing" }

// Each miss means another writer succeeded, so up to this many concurrent writers of one row never see Conflict.
const MAX_ATTEMPTS = 10

export interface Change<S, A, E1, R1, E2, R2, P extends Precondition.Precondition> {
  /** Names the aggregate in messages: "the team". */
  readonly what: string
  readonly precondition: P
  /** The current state, read afresh for each attempt; fails (NotFound) when there is none. */
  readonly read: Effect.Effect<S, E1, R1>
  /** Decides the change from `current` and writes it, a compare-and-set on `current.etag`. */
  readonly write: (current: S) => Effect.Effect<Outcome<A>, E2, R2>
}

export const conditionalWrite = <
  S extends { readonly etag: string },
  A,
  E1,
  R1,
  E2,
  R2,
  P extends Precondition.Precondition
>(change: Change<S, A, E1, R1, E2, R2, P>): Effect.Effect<A, E1 | E2 | Precondition.Failed<P> | Conflict, R1 | R2> => {
  const attempt: Effect.Effect<Outcome<A>, E1 | E2 | Precondition.Failed<P>, R1 | R2> = Effect.flatMap(
    change.read,
    (current) => Effect.zipRight(Precondition.check(change.precondition, current.etag, change.what), change.write(current))
  )
  const loop = (left: number): Effect.Effect<A, E1 | E2 | Precondition.Failed<P> | Conflict, R1 | R2> =>
    Effect.flatMap(attempt, (outcome) => {
      if (outcome._tag === "Written") return Effect.succeed(outcome.value)
      return left > 1
        ? loop(left - 1)
        : Effect.fail(new Conflict({ message: `${change.what} is being changed concurrently; retry` }))
    })
  return loop(MAX_ATTEMPTS)
}
