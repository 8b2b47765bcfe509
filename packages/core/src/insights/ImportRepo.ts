/**
 * Storage contract of staged insight imports: the staging of core's usage imports (see
 * `UsageRecordsRepo`), for insights. An import registers itself, stages its results in short
 * transactions (each renewing its heartbeat) where no reader looks, and publishes them in one
 * short transaction at the end; a failed or abandoned import's staged rows are discarded.
 */
import { Context, type Effect, type Option } from "effect"
import type { AuditRecord } from "../audit/Domain.js"
import type { StoreUnavailable } from "../shared/Errors.js"
import type { OrganizationId } from "../shared/Ids.js"
import type { Insight } from "./Domain.js"
import type { InsightKey } from "./Repo.js"

type Io<A> = Effect.Effect<A, StoreUnavailable>

/**
 * The import's latest state of one insight, and what it was based on.
 * @since 0.1.0
 * @category models
 */
export interface StagedInsight {
  /** What publishing writes for this key: the result of the import's last line for it. */
  readonly insight: Insight
  /**
   * The ETag of the published insight when the import first read it; None when there was none.
   * Publishing writes `insight` only while this still holds.
   */
  readonly base: Option.Option<string>
}

/**
 * The insight of a key as the import sees it: its own staged state, else the published one.
 * @since 0.1.0
 * @category models
 */
export interface CurrentInsight {
  readonly insight: Insight
  /** None: the published row (its ETag is the base of a change); Some: already staged, on this base. */
  readonly staged: Option.Option<Option.Option<string>>
}

/**
 * @since 0.1.0
 * @category tags
 */
export class InsightImportsRepo extends Context.Tag("@costline/core/InsightImportsRepo")<
  InsightImportsRepo,
  {
    readonly begin: (organizationId: OrganizationId, importId: string, now: Date) => Io<void>
    /** Of `keys`, those the import has staged or the organization has; a read, no lock taken. */
    readonly current: (
      organizationId: OrganizationId,
      importId: string,
      keys: ReadonlyArray<InsightKey>
    ) => Io<ReadonlyArray<CurrentInsight>>
    /**
     * One short transaction: stores (replaces) the staged state of each insight, appends the
     * audit records in order after the ones staged before, renews the heartbeat. A store with one
     * writer then leaves its lock free for a moment.
     */
    readonly stage: (
      organizationId: OrganizationId,
      importId: string,
      insights: ReadonlyArray<StagedInsight>,
      audit: ReadonlyArray<AuditRecord>,
      now: Date
    ) => Io<void>
    /**
     * Inside the caller's transaction: marks and returns the staged insights whose base no longer
     * holds (changed or created through the API since they were staged); `publish` leaves them out.
     */
    readonly conflicts: (importId: string) => Io<ReadonlyArray<StagedInsight>>
    /**
     * Inside the caller's transaction: writes every staged insight not marked as a conflict and
     * the audit records of their insights, in one statement each. What stays staged is inert
     * from then on: `discard` tidies it.
     */
    readonly publish: (importId: string) => Io<void>
    /** Deletes the import's staged rows (a bounded batch per transaction) and its registration. */
    readonly discard: (importId: string) => Io<void>
    /** Registered imports whose heartbeat is older than `before` (their process is gone). */
    readonly staleImports: (before: Date) => Io<ReadonlyArray<string>>
  }
>() {}
