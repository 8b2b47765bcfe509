/** The audit record and the names the spec allows in it. */
import { Schema } from "effect"
import { ChangedByType } from "../shared/Actor.js"
import * as SecretFields from "../secrets/SecretFields.js"
import { AuditRecordId, OrganizationId } from "../shared/Ids.js"

/**
 * @since 0.1.0
 * @category schemas
 */
export const ResourceName = Schema.Literal(
  "actions",
  "api_keys",
  "budgets",
  "connections",
  "dashboards",
  "dashboard_digests",
  "insights",
  "monitors_v2",
  "saved_views",
  "dw_warehouses",
  "teams",
  "ticket_integrations",
  "ticket_links",
  "user_roles",
  "usage_group_sets"
)
/**
 * @since 0.1.0
 * @category models
 */
export type ResourceName = typeof ResourceName.Type

/**
 * @since 0.1.0
 * @category schemas
 */
export const EventType = Schema.Literal("session", "invitation", "users", "organization")
/**
 * @since 0.1.0
 * @category models
 */
export type EventType = typeof EventType.Type

/**
 * @since 0.1.0
 * @category schemas
 */
export const Operation = Schema.Literal("create", "update", "delete", "login", "logout", "revoke", "remove")
/**
 * @since 0.1.0
 * @category models
 */
export type Operation = typeof Operation.Type

/**
 * Which operations each event type may carry; resources carry create/update/delete.
 * @since 0.1.0
 * @category constants
 */
export const EVENT_OPERATIONS: Record<EventType, ReadonlyArray<Operation>> = {
  session: ["login", "logout"],
  invitation: ["create", "revoke"],
  users: ["remove"],
  organization: ["update"]
}
/**
 * @since 0.1.0
 * @category constants
 */
export const RESOURCE_OPERATIONS: ReadonlyArray<Operation> = ["create", "update", "delete"]

/**
 * @since 0.1.0
 * @category schemas
 */
export const AuditStatus = Schema.Literal("success", "failure")
/**
 * @since 0.1.0
 * @category models
 */
export type AuditStatus = typeof AuditStatus.Type

/**
 * @since 0.1.0
 * @category schemas
 */
export const AuditKind = Schema.Literal("resource", "event")

const Values = Schema.NullOr(Schema.Record({ key: Schema.String, value: Schema.Unknown }))

/**
 * @since 0.1.0
 * @category models
 */
export class AuditRecord extends Schema.Class<AuditRecord>("AuditRecord")({
  id: AuditRecordId,
  organization_id: OrganizationId,
  changed_at: Schema.DateTimeUtc,
  kind: AuditKind,
  resource: Schema.NullOr(ResourceName),
  event_type: Schema.NullOr(EventType),
  table_name: Schema.String,
  record_id: Schema.NullOr(Schema.String),
  operation: Operation,
  status: AuditStatus,
  changed_by: Schema.String,
  changed_by_type: ChangedByType,
  old_values: Values,
  new_values: Values,
  request_id: Schema.NullOr(Schema.String)
}) {}

/**
 * What a service appends: the store adds id, time and ordering.
 * @since 0.1.0
 * @category models
 */
export interface AuditEntry {
  readonly target: { readonly resource: ResourceName } | { readonly event_type: EventType }
  readonly table_name: string
  readonly record_id: string | null
  readonly operation: Operation
  readonly status?: AuditStatus
  readonly old_values?: Record<string, unknown> | null
  readonly new_values?: Record<string, unknown> | null
}

/**
 * @since 0.1.0
 * @category schemas
 */
export const SortOrder = Schema.Literal("asc", "desc")
/**
 * @since 0.1.0
 * @category models
 */
export type SortOrder = typeof SortOrder.Type

/**
 * The export filters of GET /v2/audit-logs, already parsed. Empty arrays mean "no filter".
 * @since 0.1.0
 * @category models
 */
export interface AuditFilters {
  readonly changed_at_gte?: Date | undefined
  readonly changed_at_lte?: Date | undefined
  readonly table_name_in?: ReadonlyArray<string> | undefined
  readonly event_type_in?: ReadonlyArray<string> | undefined
  readonly resource_in?: ReadonlyArray<string> | undefined
  readonly resource_not_in?: ReadonlyArray<string> | undefined
  readonly operation_in?: ReadonlyArray<string> | undefined
  readonly operation_not_in?: ReadonlyArray<string> | undefined
  readonly status_in?: ReadonlyArray<string> | undefined
  readonly status_not_in?: ReadonlyArray<string> | undefined
  readonly id_in?: ReadonlyArray<string> | undefined
  readonly changed_by_ilike?: string | undefined
  readonly changed_by_not_ilike?: string | undefined
  readonly changed_by_isnull?: boolean | undefined
}

/**
 * Secrets never reach the audit log: secret fields (SecretFields) are replaced wherever they appear.
 * @since 0.1.0
 * @category utils
 */
export const redact = (values: Record<string, unknown> | null | undefined): Record<string, unknown> | null =>
  values == null ? null : SecretFields.redactSecretFields(values, { everyObject: true }) as Record<string, unknown>
