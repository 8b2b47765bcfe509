/**
 * Turns driver failures into the domain's typed errors. Repositories never let a `SqlError`
 * escape: a transient failure is StoreUnavailable, a unique violation is whatever the repository
 * contract says (usually AlreadyExists), and anything else is a bug, hence a defect.
 */
import { Errors } from "@costline/core"
import { SqlError } from "@effect/sql/SqlError"
import { Cause, Effect, Option } from "effect"
import type { SqlFailure } from "./SqlDialect.js"

const isSqlError = (error: unknown): error is SqlError => error instanceof SqlError

export type Classify = (error: SqlError) => SqlFailure

/** The driver's error code (SQLITE_BUSY, a SQLSTATE such as 57P03), when it has one. */
const codeOf = (error: SqlError): string | undefined => {
  const code: unknown = (error.cause as { readonly code?: unknown } | undefined)?.code
  return typeof code === "string" ? code : undefined
}

const unavailable = (error: SqlError) => {
  // The driver's message stays out: it may quote SQL or connection details. Its code is safe, and
  // is what an operator reading the log needs (the client never sees this message).
  const code = codeOf(error)
  return new Errors.StoreUnavailable({
    message: `the store is unavailable (${error.message}${code === undefined || error.message.includes(code) ? "" : `: ${code}`})`
  })
}

export interface StoreErrors {
  /** Transient SQL failures become StoreUnavailable, other SQL failures defects; `E` passes through. */
  readonly orUnavailable: <A, E, R>(
    effect: Effect.Effect<A, E | SqlError, R>
  ) => Effect.Effect<A, Exclude<E, SqlError> | Errors.StoreUnavailable, R>
  /** Like `orUnavailable`, but a unique violation fails with `onDuplicate()`. */
  readonly uniqueAs: <D>(
    onDuplicate: () => D
  ) => <A, R>(effect: Effect.Effect<A, SqlError, R>) => Effect.Effect<A, D | Errors.StoreUnavailable, R>
  /**
   * A transaction whose COMMIT or ROLLBACK fails dies inside `@effect/sql` (it cannot know whether
   * the failure is transient); a dropped connection there is still just an unavailable store.
   */
  readonly unavailableDefects: <A, E, R>(effect: Effect.Effect<A, E, R>) => Effect.Effect<A, E | Errors.StoreUnavailable, R>
}

export const makeStoreErrors = (classify: Classify): StoreErrors => {
  const mapFailure = <D>(error: SqlError, onDuplicate: (() => D) | undefined): Effect.Effect<never, D | Errors.StoreUnavailable> => {
    const kind = classify(error)
    if (kind === "unavailable") return Effect.fail(unavailable(error))
    if (kind === "unique_violation" && onDuplicate !== undefined) return Effect.fail(onDuplicate())
    return Effect.die(error)
  }
  return {
    orUnavailable: (effect) => Effect.catchIf(effect, isSqlError, (error) => mapFailure<never>(error, undefined)),
    uniqueAs: (onDuplicate) => (effect) => Effect.catchAll(effect, (error) => mapFailure(error, onDuplicate)),
    unavailableDefects: (effect) =>
      Effect.catchSomeCause(effect, (cause) => {
        const defect = Cause.dieOption(cause)
        return Option.isSome(defect) && isSqlError(defect.value) && classify(defect.value) === "unavailable"
          ? Option.some(Effect.fail(unavailable(defect.value)))
          : Option.none()
      })
  }
}
