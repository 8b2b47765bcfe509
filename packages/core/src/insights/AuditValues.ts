/** What the audit log keeps of an insight change. */
import type { AuditEntry } from "../audit/Domain.js"
import { canonicalJson } from "../shared/ETag.js"
import { detectorContentOf, type Insight, type InsightEditableState } from "./Domain.js"

type Values = Record<string, unknown>

const editableValues = (state: InsightEditableState): Values => ({
  status: state.status,
  assignee: state.assignee,
  ...detectorContentOf(state)
})

/** A new insight: its type and its whole editable state. */
export const createdValues = (insight: Insight): Values => ({
  insight_type: insight.insight_type,
  ...editableValues(insight)
})

/**
 * Only the fields whose value differs, before and after, so a record says what a change did
 * rather than repeating the insight. Values compare as JSON: `details` objects are equal
 * whatever their key order.
 */
export const changedValues = (before: InsightEditableState, after: InsightEditableState) => {
  const was = editableValues(before)
  const is = editableValues(after)
  const changed = Object.keys(was).filter((field) => canonicalJson(was[field]) !== canonicalJson(is[field]))
  return {
    old_values: Object.fromEntries(changed.map((field) => [field, was[field]])),
    new_values: Object.fromEntries(changed.map((field) => [field, is[field]]))
  }
}

/** The `insights` audit entry of a change to the insight `id`. */
export const insightEntry = (
  id: Insight["id"],
  operation: "create" | "update",
  values: Pick<AuditEntry, "old_values" | "new_values">
): AuditEntry => ({ target: { resource: "insights" }, table_name: "insights", record_id: id, operation, ...values })
