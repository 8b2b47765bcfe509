/**
 * The audit log service: appends records inside the caller's transaction and exports them with
 * filters and an exactly-once cursor.
 */
import { Context, DateTime, Effect, Layer, Schema } from "effect"
import type { Actor } from "../shared/Actor.js"
import type { InvalidPageToken, StoreUnavailable } from "../shared/Errors.js"
import { ValidationFailed } from "../shared/Errors.js"
import { newId, type OrganizationId } from "../shared/Ids.js"
import { type KeysetList, ListCursors, type Page } from "../shared/Listing.js"
import {
  type AuditEntry,
  type AuditFilters,
  AuditRecord,
  EVENT_OPERATIONS,
  EventType,
  redact,
  RESOURCE_OPERATIONS,
  ResourceName,
  type SortOrder
} from "./Domain.js"
import { AuditRepo, type PositionedRecord } from "./Repo.js"

/**
 * @since 0.1.0
 * @category models
 */
export interface ExportQuery {
  readonly filters: AuditFilters
  readonly order: SortOrder
  readonly pageToken: string | undefined
  readonly maxResults: number
}

/**
 * @since 0.1.0
 * @category tags
 */
export class AuditLog extends Context.Tag("@costline/core/AuditLog")<
  AuditLog,
  {
    /**
     * Appends one record. Call it inside the transaction of the change it describes. The entry's
     * names are typed, so an invalid one is a bug (a defect), not a failure.
     */
    readonly record: (
      actor: Actor,
      organizationId: OrganizationId,
      entry: AuditEntry
    ) => Effect.Effect<AuditRecord, StoreUnavailable>
    /**
     * For host applications auditing their own resources (`dashboards`, `monitors_v2`, ...) from
     * untyped input: names and operations are checked against the spec's lists.
     */
    readonly recordChecked: (
      actor: Actor,
      organizationId: OrganizationId,
      entry: AuditEntry
    ) => Effect.Effect<AuditRecord, ValidationFailed | StoreUnavailable>
    readonly export: (
      organizationId: OrganizationId,
      query: ExportQuery
    ) => Effect.Effect<Page<AuditRecord>, InvalidPageToken | ValidationFailed | StoreUnavailable>
  }
>() {}

const isResource = Schema.is(ResourceName)
const isEvent = Schema.is(EventType)

const checkEntry = (entry: AuditEntry): ValidationFailed | undefined => {
  if (entry.table_name.length === 0) return ValidationFailed.single("table_name", "empty", "table_name is required")
  if ("resource" in entry.target) {
    if (!isResource(entry.target.resource)) {
      return ValidationFailed.single("resource", "unknown", `unknown audit resource '${entry.target.resource}'`)
    }
    if (!RESOURCE_OPERATIONS.includes(entry.operation)) {
      return ValidationFailed.single("operation", "invalid", `operation '${entry.operation}' is not valid for a resource`)
    }
    return undefined
  }
  if (!isEvent(entry.target.event_type)) {
    return ValidationFailed.single("event_type", "unknown", `unknown audit event '${entry.target.event_type}'`)
  }
  if (!EVENT_OPERATIONS[entry.target.event_type].includes(entry.operation)) {
    return ValidationFailed.single(
      "operation",
      "invalid",
      `operation '${entry.operation}' is not valid for event '${entry.target.event_type}'`
    )
  }
  return undefined
}

/**
 * The export as a paged list: bound to the sort order, resumed at the store's own ordering key
 * (SQLite: a sequence; Postgres: the commit-time stamp, `xid:seq` in tokens issued before it),
 * never a timestamp: many records share one `changed_at`. A page with records always points
 * past its last one; the token is null only when there was nothing (API-DECISIONS, exactly once).
 * @since 0.1.0
 * @category utils
 */
export const exportList = (order: SortOrder): KeysetList<PositionedRecord, string> => ({
  binding: order,
  otherOrders: [order === "asc" ? "desc" : "asc"],
  position: Schema.String,
  positionOf: (row) => row.position,
  tokenOnLastPage: true
})

/**
 * The record of a typed entry, as `record` appends it: for callers that write records in bulk
 * (a staged import) rather than one at a time. `trusted`: the entry was built by core from
 * validated values, so the constructor need not check it again (it costs more than the rest of
 * an import's work per record).
 * @since 0.1.0
 * @category utils
 */
export const auditRecordOf = (
  actor: Actor,
  organizationId: OrganizationId,
  entry: AuditEntry,
  fresh: { readonly id: AuditRecord["id"]; readonly at: DateTime.Utc },
  options: { readonly trusted?: boolean } = {}
): AuditRecord =>
  new AuditRecord({
    id: fresh.id,
    organization_id: organizationId,
    changed_at: fresh.at,
    kind: "resource" in entry.target ? "resource" : "event",
    resource: "resource" in entry.target ? entry.target.resource : null,
    event_type: "event_type" in entry.target ? entry.target.event_type : null,
    table_name: entry.table_name,
    record_id: entry.record_id,
    operation: entry.operation,
    status: entry.status ?? "success",
    changed_by: actor.changedBy,
    changed_by_type: actor.changedByType,
    old_values: redact(entry.old_values),
    new_values: redact(entry.new_values),
    request_id: actor.requestId
  }, { disableValidation: options.trusted === true })

/**
 * @since 0.1.0
 * @category constructors
 */
export const make = Effect.gen(function*() {
  const repo = yield* AuditRepo
  const cursors = yield* ListCursors

  const append = (actor: Actor, organizationId: OrganizationId, entry: AuditEntry, trusted: boolean) =>
    Effect.gen(function*() {
      const audit = auditRecordOf(actor, organizationId, entry, { id: yield* newId<"AuditRecordId">(), at: yield* DateTime.now }, {
        trusted
      })
      yield* repo.append(audit)
      return audit
    })

  const recordChecked = (actor: Actor, organizationId: OrganizationId, entry: AuditEntry) => {
    const invalid = checkEntry(entry)
    return invalid ? Effect.fail(invalid) : append(actor, organizationId, entry, false)
  }

  // A typed entry whose names pass `checkEntry` makes a valid record (its other fields are typed
  // and come from validated values), so the record is not validated again (issue 19: it was a
  // tenth of an audited write's CPU). Host input goes through `recordChecked`, which still does.
  const record = (actor: Actor, organizationId: OrganizationId, entry: AuditEntry) => {
    const invalid = checkEntry(entry)
    return invalid ? Effect.die(invalid) : append(actor, organizationId, entry, true)
  }

  const exportPage = (organizationId: OrganizationId, query: ExportQuery) =>
    Effect.map(
      cursors.page(
        organizationId,
        exportList(query.order),
        query,
        { size: "query.max_results" },
        ({ after, limit }) => repo.page({ organizationId, filters: query.filters, order: query.order, after, limit })
      ),
      (page): Page<AuditRecord> => ({ items: page.items.map((row) => row.record), page_token: page.page_token })
    )

  return AuditLog.of({ record, recordChecked, export: exportPage })
})

/**
 * @since 0.1.0
 * @category layers
 */
export const layer = Layer.effect(AuditLog, make)
