/**
 * Budget status of a usage group in one month. A budget is credits per UTC calendar month:
 * `on_track` below 80% of it, `at_risk` from 80% up to and including 100%, `over_budget` above,
 * `no_budget` without one.
 */
import { Schema } from "effect"

/**
 * @since 0.1.0
 * @category schemas
 */
export const BudgetStatus = Schema.Literal("on_track", "at_risk", "over_budget", "no_budget")
/**
 * @since 0.1.0
 * @category models
 */
export type BudgetStatus = typeof BudgetStatus.Type

/**
 * Share of the budget from which a group is at risk.
 * @since 0.1.0
 * @category constants
 */
export const AT_RISK_SHARE = 0.8

/**
 * @since 0.1.0
 * @category models
 */
export interface BudgetState {
  readonly spent: number
  readonly budget: number | null
  /** `budget - spent`: negative once over budget, so the overspend shows; null without a budget. */
  readonly remaining: number | null
  readonly status: BudgetStatus
}

const statusOf = (spent: number, budget: number): BudgetStatus => {
  if (spent > budget) return "over_budget"
  // `spent > 0` matters only for a zero budget: nothing spent of nothing is on track, not at risk.
  return spent >= AT_RISK_SHARE * budget && spent > 0 ? "at_risk" : "on_track"
}

/**
 * @since 0.1.0
 * @category utils
 */
export const budgetState = (spent: number, budget: number | null): BudgetState =>
  budget === null
    ? { spent, budget, remaining: null, status: "no_budget" }
    : { spent, budget, remaining: budget - spent, status: statusOf(spent, budget) }

/**
 * Whether a `budget_exceeded` insight is due for this group and month.
 * @since 0.1.0
 * @category utils
 */
export const raisesBudgetExceeded = (state: BudgetState): boolean => state.status === "over_budget"
