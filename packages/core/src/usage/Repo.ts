/** Storage contracts of usage group sets, usage groups and usage records. */
import { Context, type DateTime, type Effect, type Option } from "effect"
import type { AlreadyExists, StoreUnavailable } from "../shared/Errors.js"
import type { OrganizationId } from "../shared/Ids.js"
import type { UsageGroup, UsageGroupId, UsageGroupSet, UsageGroupSetId, UsageRecord } from "./Domain.js"

type Io<A> = Effect.Effect<A, StoreUnavailable>

/**
 * A group's place in its set's precedence order (`order`, `created_at`, `id`).
 * @since 0.1.0
 * @category models
 */
export interface GroupPosition {
  readonly order: number
  readonly created_at: DateTime.Utc
  readonly id: UsageGroupId
}

/**
 * @since 0.1.0
 * @category models
 */
export interface GroupPageQuery {
  readonly organizationId: OrganizationId
  readonly setId: UsageGroupSetId
  /** None on the first page. */
  readonly after: Option.Option<GroupPosition>
  /** None: every group after `after`. */
  readonly limit: Option.Option<number>
}

/**
 * @since 0.1.0
 * @category tags
 */
export class UsageGroupsRepo extends Context.Tag("@costline/core/UsageGroupsRepo")<
  UsageGroupsRepo,
  {
    /**
     * Fails with AlreadyExists when the organization has a set of the same name, compared with
     * `setNameKey`: a unique index decides, so two concurrent creations cannot both succeed.
     */
    readonly insertSet: (set: UsageGroupSet) => Effect.Effect<void, AlreadyExists | StoreUnavailable>
    readonly findSet: (organizationId: OrganizationId, id: UsageGroupSetId) => Io<Option.Option<UsageGroupSet>>
    /** The group's `usage_group_set_name` is not stored: reads take it from the set. */
    readonly insertGroup: (group: UsageGroup) => Io<void>
    readonly findGroup: (
      organizationId: OrganizationId,
      setId: UsageGroupSetId,
      id: UsageGroupId
    ) => Io<Option.Option<UsageGroup>>
    /**
     * Groups of a set in precedence order, strictly after `after`: a keyset condition on an index
     * over (set, order, created_at, id), so the cost of a page does not grow with its depth.
     */
    readonly listGroups: (query: GroupPageQuery) => Io<ReadonlyArray<UsageGroup>>
    /**
     * Writes `group`'s editable fields, `etag` and `updated_at` only where the stored ETag is still
     * `expectedEtag`, in one statement; false when no row matched (changed or deleted since).
     */
    readonly updateGroupIfEtag: (group: UsageGroup, expectedEtag: string) => Io<boolean>
    /** Deletes the group only where the stored ETag is still `expectedEtag`; false when no row matched. */
    readonly deleteGroupIfEtag: (
      organizationId: OrganizationId,
      setId: UsageGroupSetId,
      id: UsageGroupId,
      expectedEtag: string
    ) => Io<boolean>
  }
>() {}

/**
 * Usage records of one organization whose `start_time` is in [from, to).
 * @since 0.1.0
 * @category models
 */
export interface UsageScan {
  readonly organizationId: OrganizationId
  readonly from: Date
  readonly to: Date
}

/**
 * @since 0.1.0
 * @category tags
 */
export class UsageRecordsRepo extends Context.Tag("@costline/core/UsageRecordsRepo")<
  UsageRecordsRepo,
  {
    /** Appends records (any number) inside the ambient transaction, if any. */
    readonly insert: (organizationId: OrganizationId, records: ReadonlyArray<UsageRecord>) => Io<void>
    /**
     * Staged imports: `beginImport` registers an import, `stage` appends a batch of its records
     * (renewing its heartbeat), which scans do not see until `publish` makes all of them visible
     * at once. `discard` deletes an unpublished import's records, a bounded batch per
     * transaction. Each call is a short transaction of its own unless the caller's encloses it.
     */
    readonly beginImport: (organizationId: OrganizationId, importId: string, now: Date) => Io<void>
    readonly stage: (organizationId: OrganizationId, importId: string, records: ReadonlyArray<UsageRecord>, now: Date) => Io<void>
    readonly publish: (importId: string) => Io<void>
    readonly discard: (importId: string) => Io<void>
    /** Unpublished imports whose heartbeat is older than `before` (their process is gone). */
    readonly staleImports: (before: Date) => Io<ReadonlyArray<string>>
    /**
     * Hands every record of the scan to `onBatch`, a bounded batch at a time (keyset reads, never
     * all rows at once), and waits for each batch to be handled before reading the next. Every
     * batch comes from the state of the store when the scan began: records committed meanwhile
     * are not seen, so an import that commits (or is published) during a scan is seen entirely
     * or not at all; the records of an unpublished import are never seen.
     */
    readonly scan: <E, R>(
      scan: UsageScan,
      onBatch: (records: ReadonlyArray<UsageRecord>) => Effect.Effect<void, E, R>
    ) => Effect.Effect<void, E | StoreUnavailable, R>
  }
>() {}
