import { describe, expect, it } from "@effect/vitest"
import { budgetState, raisesBudgetExceeded } from "../../src/usage/Budget.js"

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
