/**
 * Storage contract of insights. Every method is one statement or one short transaction, so the
 * rules hold with many server instances over one database (never by process memory).
 */
import { Context, Data, type DateTime, type Effect, type Option } from "effect"
import type { SortOrder } from "../audit/Domain.js"
import type { StoreUnavailable } from "../shared/Errors.js"
import type { OrganizationId } from "../shared/Ids.js"
import type { Window } from "../shared/Listing.js"
import type {
  Insight,
  InsightFilters,
  InsightId,
  InsightQuery,
  InsightQueryRow,
  InsightSortBy,
  InsightType,
  UserEditable
} from "./Domain.js"

type Io<A> = Effect.Effect<A, StoreUnavailable>

/**
 * The natural key of an insight within its organization.
 * @since 0.1.0
 * @category models
 */
export interface InsightKey {
  readonly insight_type: InsightType
  readonly resource_id: string
}

/**
 * @since 0.1.0
 * @category models
 */
export type UpsertResult = Data.TaggedEnum<{
  Created: { readonly insight: Insight }
  Updated: { readonly before: Insight; readonly insight: Insight }
  Unchanged: { readonly insight: Insight }
}>
/**
 * @since 0.1.0
 * @category utils
 */
export const UpsertResult = Data.taggedEnum<UpsertResult>()

/**
 * A compare-and-set of the user-editable fields (`PATCH` with `If-Match`).
 * @since 0.1.0
 * @category models
 */
export interface ConditionalUpdate {
  readonly organizationId: OrganizationId
  readonly id: InsightId
  /** The write happens only while the stored ETag is still this one. */
  readonly expectedEtag: string
  readonly set: UserEditable
  readonly newEtag: string
  readonly updateTime: DateTime.Utc
}

/**
 * @since 0.1.0
 * @category models
 */
export type ConditionalUpdateResult = Data.TaggedEnum<{
  Updated: { readonly insight: Insight }
  /** The insight changed since `expectedEtag` was read; nothing was written. */
  Stale: { readonly current: Insight }
  NotFound: {}
}>
/**
 * @since 0.1.0
 * @category utils
 */
export const ConditionalUpdateResult = Data.taggedEnum<ConditionalUpdateResult>()

/**
 * @since 0.1.0
 * @category models
 */
export interface ViewRecord {
  readonly organizationId: OrganizationId
  readonly insightId: InsightId
  /** The viewing user's email. */
  readonly viewer: string
  /** `ViewDay.dayKey(at)`: the unit of the once-per-day rule. */
  readonly day: string
  readonly at: DateTime.Utc
}

/**
 * @since 0.1.0
 * @category models
 */
export type ViewResult = Data.TaggedEnum<{
  /** `counted`: this call raised `view_count` (the first view of this user on this day). */
  Recorded: { readonly counted: boolean }
  NotFound: {}
}>
/**
 * @since 0.1.0
 * @category utils
 */
export const ViewResult = Data.taggedEnum<ViewResult>()

/**
 * @since 0.1.0
 * @category models
 */
export interface InsightPageQuery {
  readonly organizationId: OrganizationId
  readonly filters: InsightFilters
  readonly sortBy: InsightSortBy
  readonly sortOrder: SortOrder
  /** `after` is the sort value and id of the previous page's last insight; absent on the first page. */
  readonly window: Window
}

/**
 * @since 0.1.0
 * @category tags
 */
export class InsightsRepo extends Context.Tag("@costline/core/InsightsRepo")<
  InsightsRepo,
  {
    /**
     * Creates or updates the insight with this key. `merge` is pure (see `Upsert.mergeUpsert`):
     * given the stored row, if any, it returns the row to write, or None to leave it as it is.
     * One short transaction that holds the key while it reads, merges and writes, so concurrent
     * upserts of one key serialize: SQLite by `BEGIN IMMEDIATE`; Postgres by `SELECT … FOR UPDATE`
     * and, when the row does not exist yet, `INSERT … ON CONFLICT DO NOTHING`; if that inserted
     * nothing, another transaction created the row first: read it again (`FOR UPDATE`) and call
     * `merge` again. Joins the ambient transaction, so the caller's audit record commits with it.
     */
    readonly upsert: (
      organizationId: OrganizationId,
      key: InsightKey,
      merge: (existing: Option.Option<Insight>) => Option.Option<Insight>
    ) => Io<UpsertResult>
    readonly findById: (organizationId: OrganizationId, id: InsightId) => Io<Option.Option<Insight>>
    /**
     * `findById` inside the caller's transaction, holding the insight against other writers until
     * that transaction ends (SQLite: `BEGIN IMMEDIATE` holds the database; Postgres: `FOR UPDATE`),
     * so what the caller decides from it stays true until it commits.
     */
    readonly lockById: (organizationId: OrganizationId, id: InsightId) => Io<Option.Option<Insight>>
    /**
     * At most `window.limit` insights matching every filter, ordered by (`sortBy`, `id`) in
     * `sortOrder` (ties on the sort value broken by id in the same direction), strictly after
     * `window.after`.
     * A keyset condition on an index over (organization, sort column, id): the cost of a page
     * does not grow with its depth.
     */
    readonly list: (query: InsightPageQuery) => Io<ReadonlyArray<Insight>>
    /**
     * Sets `set`, `etag = newEtag` and `update_time` only where the stored ETag equals
     * `expectedEtag`, in ONE statement (`UPDATE … WHERE organization_id = ? AND id = ? AND etag = ?`),
     * so of two updates made with the same ETag exactly one wins. When no row was updated the
     * store reads the row to tell Stale from NotFound.
     */
    readonly updateIfEtag: (update: ConditionalUpdate) => Io<ConditionalUpdateResult>
    /**
     * One transaction: insert (insight, viewer, day) into a table unique on those three, doing
     * nothing on conflict; then in one UPDATE of the insight add 1 to `view_count` only when that
     * insert added a row, set `first_viewed_by/at` when still null, and set `last_viewed_by/at`
     * unless the stored `last_viewed_at` is later (a slow concurrent call never moves it back).
     * The unique index makes the count right under concurrent calls and across instances.
     * The ETag and `update_time` do not change: a view is not an edit.
     */
    readonly recordView: (view: ViewRecord) => Io<ViewResult>
    /**
     * The query as ONE `GROUP BY` in the database over the filtered insights of the organization:
     * a row per combination of the dimensions, ordered by `order_by` (then by the dimensions
     * ascending, for a stable cut), at most `limit` rows. `create_day`/`create_month` are the UTC
     * `YYYY-MM-DD`/`YYYY-MM` of `create_time`; sums and averages over no values are null.
     */
    readonly aggregate: (organizationId: OrganizationId, query: InsightQuery) => Io<ReadonlyArray<InsightQueryRow>>
  }
>() {}
