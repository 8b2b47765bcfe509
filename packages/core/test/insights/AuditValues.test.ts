import { describe, expect, it } from "@effect/vitest"
import { FastCheck as fc } from "effect"
import { changedValues, createdValues } from "../../src/insights/AuditValues.js"
import { canonicalJson } from "../../src/shared/ETag.js"
import { EDITABLE_FIELDS, editableState, insight } from "./arbitraries.js"

describe("changedValues", () => {
  it.prop(
    "names exactly the fields whose JSON differs, with their values before and after",
    [editableState, editableState],
    ([before, after]) => {
      const { new_values, old_values } = changedValues(before, after)
      for (const field of EDITABLE_FIELDS) {
        const differs = canonicalJson(before[field]) !== canonicalJson(after[field])
        expect(field in old_values, field).toBe(differs)
        expect(field in new_values, field).toBe(differs)
        if (differs) expect([old_values[field], new_values[field]]).toStrictEqual([before[field], after[field]])
      }
    }
  )

  it.prop("details with the same members in another order are no change", [editableState], ([state]) => {
    const reordered = Object.fromEntries(Object.entries(state.details).reverse())
    expect(changedValues(state, { ...state, details: reordered })).toStrictEqual({ old_values: {}, new_values: {} })
  })

  it.prop("a triage records the status and the assignee alone", [editableState], ([state]) => {
    fc.pre(state.status !== "resolved" && state.assignee !== "new@example.com")
    const after = { ...state, status: "resolved" as const, assignee: "new@example.com" }
    expect(changedValues(state, after)).toStrictEqual({
      old_values: { status: state.status, assignee: state.assignee },
      new_values: { status: "resolved", assignee: "new@example.com" }
    })
  })
})

describe("createdValues", () => {
  it.prop("holds the type and the whole editable state, nothing of views or times", [insight], ([created]) => {
    const values = createdValues(created)
    expect(Object.keys(values).sort()).toStrictEqual(["insight_type", ...EDITABLE_FIELDS].sort())
    expect(values["insight_type"]).toBe(created.insight_type)
    for (const field of EDITABLE_FIELDS) expect(values[field]).toStrictEqual(created[field])
  })
})
