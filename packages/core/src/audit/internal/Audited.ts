/**
 * How a service describes a change to the audit log. Each audited aggregate has one builder,
 * made beside its schema from its target, its table and its audited projection (what the log
 * keeps of it: never secrets, never who or when, which the record says itself), so every record
 * of one aggregate has one shape. One diff policy for all (docs/concepts.md#what-a-record-holds):
 *
 * - `created(a)`: `new_values` = the projection of `a`, `old_values` null;
 * - `updated(before, after)`: both whole projections, so a record stands on its own (a consumer
 *   that skipped earlier records still knows the state) and an update's `old_values` are the
 *   `new_values` of the update before it;
 * - `deleted(a)`: `old_values` = the projection of `a`, `new_values` null;
 * - `refused(operation, recordId, asked)`: a change the caller was not allowed to make, with what
 *   it asked for as `new_values` (there is no state to project), `status: failure`.
 */
import type { AuditEntry, EventType, Operation, ResourceName } from "../Domain.js"

type Values = Record<string, unknown>
type Change = "create" | "update" | "delete"

export interface Audited<A> {
  readonly created: (value: A) => AuditEntry
  readonly updated: (before: A, after: A) => AuditEntry
  readonly deleted: (value: A) => AuditEntry
  readonly refused: (change: Change, recordId: string | null, asked: Values) => AuditEntry
}

export interface Spec<A> {
  readonly target: AuditEntry["target"]
  readonly table_name: string
  readonly id: (value: A) => string
  /** The audited projection; null for an event that carries no values. */
  readonly values: (value: A) => Values | null
  /** What an event calls its create/update/delete (a `session` logs in and out); resources keep the names. */
  readonly operations?: Partial<Record<Change, Operation>>
}

export const make = <A>(spec: Spec<A>): Audited<A> => {
  const entry = (change: Change, recordId: string | null, values: Pick<AuditEntry, "old_values" | "new_values" | "status">): AuditEntry => ({
    target: spec.target,
    table_name: spec.table_name,
    record_id: recordId,
    operation: spec.operations?.[change] ?? change,
    ...values
  })
  return {
    created: (value) => entry("create", spec.id(value), { old_values: null, new_values: spec.values(value) }),
    updated: (before, after) =>
      entry("update", spec.id(after), { old_values: spec.values(before), new_values: spec.values(after) }),
    deleted: (value) => entry("delete", spec.id(value), { old_values: spec.values(value), new_values: null }),
    refused: (change, recordId, asked) => entry(change, recordId, { old_values: null, new_values: asked, status: "failure" })
  }
}

/** An aggregate of a `resource` kind, in `table_name`, recorded under its own `id`. */
export const resource = <A extends { readonly id: string }>(
  resource: ResourceName,
  table_name: string,
  values: (value: A) => Values
): Audited<A> => make({ target: { resource }, table_name, id: (value) => value.id, values })

/** Something an `event_type` records; `spec` names its record id, values and operations. */
export const event = <A>(event_type: EventType, table_name: string, spec: Omit<Spec<A>, "target" | "table_name">): Audited<A> =>
  make({ target: { event_type }, table_name, ...spec })
