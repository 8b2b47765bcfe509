/**
 * Core's Transactor over a dialect's own `withTransaction` (SQLite: BEGIN IMMEDIATE behind a
 * write lock; Postgres: the client's READ COMMITTED transaction). Nested calls join the outer
 * transaction as a savepoint, so a failed inner step can be recovered without losing the outer.
 */
import { Transactor } from "@costline/core"
import type { SqlError } from "@effect/sql/SqlError"
import type { Effect } from "effect"
import type { StoreErrors } from "./StoreErrors.js"

export type WithTransaction = <A, E, R>(effect: Effect.Effect<A, E, R>) => Effect.Effect<A, E | SqlError, R>

export const makeTransactor = (errors: StoreErrors, withTransaction: WithTransaction): Transactor.Transactor["Type"] =>
  Transactor.Transactor.of({
    withTransaction: (effect) =>
      // Repositories map their own statements' errors; what is left comes from acquiring the
      // connection, BEGIN/SAVEPOINT/COMMIT, or SQL the caller ran itself inside the transaction.
      errors.unavailableDefects(errors.orUnavailable(withTransaction(effect)))
  })
