/**
 * How busy this instance's store connections are, for `/metrics`: provided by each store. Postgres
 * counts this instance's pool connections (in use, idle, the configured maximum); SQLite has one
 * connection per process and file, so "in use" is whether the write lock is held and "waiting"
 * the transactions queued for it.
 */
import { Context, type Effect } from "effect"

/**
 * @since 0.1.0
 * @category models
 */
export interface PoolUsage {
  readonly inUse: number
  readonly idle: number
  /** Callers waiting for a connection (SQLite: for the write lock); undefined when the store cannot tell. */
  readonly waiting: number | undefined
  readonly max: number
}

/**
 * @since 0.1.0
 * @category tags
 */
export class StorePool extends Context.Tag("@costline/core/StorePool")<
  StorePool,
  {
    /** Sampled when read (at each scrape); undefined when the store cannot tell right now. */
    readonly usage: Effect.Effect<PoolUsage | undefined>
  }
>() {}
