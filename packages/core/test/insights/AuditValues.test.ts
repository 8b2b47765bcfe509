import { describe, expect, it } from "@effect/vitest"
import { Insight } from "../../src/insights/Domain.js"
import { auditedValues, InsightAudit } from "../../src/insights/internal/AuditValues.js"
import { EDITABLE_FIELDS, editableState, insight } from "./arbitraries.js"

describe("auditedValues", () => {
  it.prop("holds the type and the whole editable state, nothing of views or times", [insight], ([created]) => {
    const values = auditedValues(created)
    expect(Object.keys(values).sort()).toStrictEqual(["insight_type", ...EDITABLE_FIELDS].sort())
    expect(values["insight_type"]).toBe(created.insight_type)
    for (const field of EDITABLE_FIELDS) expect(values[field]).toStrictEqual(created[field])
  })
})

describe("InsightAudit", () => {
  it.prop("an update records the whole audited state before and after", [insight, editableState], ([before, state]) => {
    const after = new Insight({ ...before, ...state })
    expect(InsightAudit.updated(before, after)).toStrictEqual({
      target: { resource: "insights" },
      table_name: "insights",
      record_id: before.id,
      operation: "update",
      old_values: auditedValues(before),
      new_values: auditedValues(after)
    })
  })
})
