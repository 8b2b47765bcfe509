/**
 * Storage contract of usage records that an ingestion owns, by key, so that re-ingesting replaces
 * them. An ingestion is staged like a usage import (UsageRecordsRepo's `beginImport`/`stage`/
 * `discard`, sharing its registry and its stale-import discarding): its records are written in
 * short transactions, invisible until `publish`, and the records they replace stay visible until
 * then, so readers see the old records or the new ones, never both, never neither.
 */
import { Context, type Effect } from "effect"
import type { Conflict, StoreUnavailable } from "../shared/Errors.js"
import type { OrganizationId } from "../shared/Ids.js"
import type { UsageRecord } from "../usage/Domain.js"

/**
 * A usage record and the key of what it measures: `query:<QUERY_ID>` or `idle:<warehouse>:<hour>`.
 * @since 0.1.0
 * @category models
 */
export interface KeyedUsage {
  readonly key: string
  readonly record: UsageRecord
}

/**
 * @since 0.1.0
 * @category tags
 */
export class KeyedUsageRepo extends Context.Tag("@costline/core/KeyedUsageRepo")<
  KeyedUsageRepo,
  {
    /**
     * Registers a pending ingestion (a `usage_imports` entry; UsageRecordsRepo's `discard` and
     * `staleImports` apply to it). One per organization at a time: Conflict while another is pending.
     */
    readonly begin: (
      organizationId: OrganizationId,
      ingestionId: string,
      now: Date
    ) => Effect.Effect<void, Conflict | StoreUnavailable>
    /**
     * In its own short transaction: writes the records, invisible until `publish`, and may mark
     * the visible records stored under their keys as replaced by this ingestion (or leave that to
     * `seal`); renews the heartbeat. Keys are distinct within an ingestion. Conflict (writing
     * nothing) when the ingestion is no longer pending (discarded as stale meanwhile).
     */
    readonly stage: (
      organizationId: OrganizationId,
      ingestionId: string,
      rows: ReadonlyArray<KeyedUsage>,
      now: Date
    ) => Effect.Effect<void, Conflict | StoreUnavailable>
    /**
     * After the last `stage`, before `publish`, in short transactions: every visible record stored
     * under a staged key is marked replaced by this ingestion (those `stage` did not mark yet; it
     * stays visible until `publish`). Conflict when the ingestion is no longer pending.
     */
    readonly seal: (
      organizationId: OrganizationId,
      ingestionId: string,
      now: Date
    ) => Effect.Effect<void, Conflict | StoreUnavailable>
    /**
     * Inside the caller's transaction, one short statement: the staged records become visible and
     * the records they replace invisible, at once. Conflict when the ingestion is no longer pending.
     */
    readonly publish: (ingestionId: string) => Effect.Effect<void, Conflict | StoreUnavailable>
    /** Deletes the records replaced by published ingestions, in short transactions. */
    readonly purgeReplaced: Effect.Effect<void, StoreUnavailable>
  }
>() {}
