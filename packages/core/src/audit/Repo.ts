/** Storage contract of the audit log: append-only, read in commit order by an opaque position. */
import { Context, type Effect } from "effect"
import type { InvalidPageToken, StoreUnavailable } from "../shared/Errors.js"
import type { OrganizationId } from "../shared/Ids.js"
import type { AuditFilters, AuditRecord, SortOrder } from "./Domain.js"

/**
 * @since 0.1.0
 * @category models
 */
export interface AuditPageQuery {
  readonly organizationId: OrganizationId
  readonly filters: AuditFilters
  readonly order: SortOrder
  /** Position of the last record the caller has; none on the first page. */
  readonly after: string | undefined
  readonly limit: number
}

/**
 * @since 0.1.0
 * @category models
 */
export interface PositionedRecord {
  readonly record: AuditRecord
  /** The store's ordering key of this record, opaque to the domain. */
  readonly position: string
}

/**
 * @since 0.1.0
 * @category tags
 */
export class AuditRepo extends Context.Tag("@costline/core/AuditRepo")<
  AuditRepo,
  {
    /** Appends inside the ambient transaction, if any. */
    readonly append: (record: AuditRecord) => Effect.Effect<void, StoreUnavailable>
    /**
     * Records strictly after `after` in `order`, only those whose transaction committed and
     * that no still-running transaction can precede (so nothing is ever skipped). A position this
     * store never issued (tokens survive a change of store) fails with InvalidPageToken.
     */
    readonly page: (
      query: AuditPageQuery
    ) => Effect.Effect<ReadonlyArray<PositionedRecord>, InvalidPageToken | StoreUnavailable>
  }
>() {}
