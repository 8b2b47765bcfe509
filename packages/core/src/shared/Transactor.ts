/**
 * Runs an effect in one store transaction. Stores implement it with their dialect's locking
 * (SQLite: BEGIN IMMEDIATE; Postgres: READ COMMITTED). Nested calls join the outer transaction,
 * which is how a service's change and its audit record always commit together.
 */
import { Context, type Effect } from "effect"
import type { StoreUnavailable } from "./Errors.js"

/**
 * @since 0.1.0
 * @category tags
 */
export class Transactor extends Context.Tag("@costline/core/Transactor")<
  Transactor,
  {
    readonly withTransaction: <A, E, R>(effect: Effect.Effect<A, E, R>) => Effect.Effect<A, E | StoreUnavailable, R>
  }
>() {}
