import { describe, expect, it } from "@effect/vitest"
import type { MonthlyTotal } from "../../src/usage/Attribution.js"
import { budgetReport, budgetState, raisesBudgetExceeded } from "../../src/usage/Budget.js"
import { UsageGroupId } from "../../src/usage/Domain.js"

describe("budgetState", () => {
  it.each([
    [0, "on_track"],
    [79.99, "on_track"],
    [80, "at_risk"],
    [99.99, "at_risk"],
    [100, "at_risk"],
    [100.01, "over_budget"]
  ] as const)("%d of 100 spent is %s", (spent, status) => {
    expect(budgetState(spent, 100).status).toBe(status)
  })

  it("remaining is budget minus spent, negative once over", () => {
    expect(budgetState(30, 100)).toEqual({ spent: 30, budget: 100, remaining: 70, status: "on_track" })
    expect(budgetState(130, 100)).toEqual({ spent: 130, budget: 100, remaining: -30, status: "over_budget" })
  })

  it("without a budget there is no status and nothing remaining", () => {
    expect(budgetState(1e9, null)).toEqual({ spent: 1e9, budget: null, remaining: null, status: "no_budget" })
  })

  it("a zero budget is on track until anything is spent", () => {
    expect(budgetState(0, 0).status).toBe("on_track")
    expect(budgetState(0.01, 0).status).toBe("over_budget")
  })

  it("only an overspent group raises budget_exceeded", () => {
    expect(raisesBudgetExceeded(budgetState(100.01, 100))).toBe(true)
    expect(raisesBudgetExceeded(budgetState(100, 100))).toBe(false)
    expect(raisesBudgetExceeded(budgetState(5, null))).toBe(false)
  })
})

describe("budgetReport", () => {
  const capped = UsageGroupId.make("00000000-0000-4000-8000-000000000001")
  const open = UsageGroupId.make("00000000-0000-4000-8000-000000000002")
  const totals: Array<MonthlyTotal> = [
    { usage_group_id: capped, month: "2024-05", credits: 90, records: 3 },
    { usage_group_id: open, month: "2024-05", credits: 40, records: 1 },
    { usage_group_id: null, month: "2024-05", credits: 1000, records: 9 },
    { usage_group_id: capped, month: "2024-06", credits: 120, records: 2 }
  ]

  it("states every group in every requested month, with 0 spent where nothing was attributed", () => {
    const groups = [{ id: capped, budget: 100 }, { id: open, budget: null }]
    const report = budgetReport(groups, totals, ["2024-05", "2024-06", "2024-07"])
    expect(report.map(({ month, status, usage_group_id, spent }) => [usage_group_id, month, spent, status])).toEqual([
      [capped, "2024-05", 90, "at_risk"],
      [open, "2024-05", 40, "no_budget"],
      [capped, "2024-06", 120, "over_budget"],
      [open, "2024-06", 0, "no_budget"],
      [capped, "2024-07", 0, "on_track"],
      [open, "2024-07", 0, "no_budget"]
    ])
  })
})
