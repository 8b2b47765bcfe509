/** Storage contract of usage records that an ingestion owns, by key, so that re-ingesting replaces them. */
import { Context, type Effect } from "effect"
import type { StoreUnavailable } from "../shared/Errors.js"
import type { OrganizationId } from "../shared/Ids.js"
import type { UsageRecord } from "../usage/Domain.js"

/** A usage record and the key of what it measures: `query:<QUERY_ID>` or `idle:<warehouse>:<hour>`. */
export interface KeyedUsage {
  readonly key: string
  readonly record: UsageRecord
}

export class KeyedUsageRepo extends Context.Tag("@costline/core/KeyedUsageRepo")<
  KeyedUsageRepo,
  {
    /**
     * Writes the records into the organization's usage records (the table attribution scans),
     * replacing any record stored before under the same key; inside the ambient transaction.
     * Keys within one call are distinct.
     */
    readonly replace: (
      organizationId: OrganizationId,
      rows: ReadonlyArray<KeyedUsage>
    ) => Effect.Effect<void, StoreUnavailable>
  }
>() {}
