/**
 * Whether the store can serve: reachable, and every migration this build knows applied (an
 * instance of a newer build must not take traffic on an older schema). Provided by each store;
 * `/readyz` reports it.
 */
import { Context, type Effect } from "effect"
import type { StoreUnavailable } from "../shared/Errors.js"

/**
 * @since 0.1.0
 * @category models
 */
export interface StoreStatus {
  /** The kind of store (`sqlite`, `postgres`), for `/version` and operators. */
  readonly store: string
  /** Migrations this build has and the store has not applied, by name (`0600_rate_limits`). */
  readonly pendingMigrations: ReadonlyArray<string>
  /** Migrations the store has applied, in order, by name, with when (`costline migrate status`). */
  readonly appliedMigrations: ReadonlyArray<{ readonly name: string; readonly appliedAt: string }>
}

/**
 * @since 0.1.0
 * @category tags
 */
export class StoreHealth extends Context.Tag("@costline/core/StoreHealth")<
  StoreHealth,
  {
    /** Fails with StoreUnavailable when the store cannot be reached. */
    readonly check: Effect.Effect<StoreStatus, StoreUnavailable>
  }
>() {}

/**
 * @since 0.1.0
 * @category utils
 */
export const isReady = (status: StoreStatus): boolean => status.pendingMigrations.length === 0
