/**
 * `budget_exceeded` insights from an attribution report: one per group and month over budget,
 * raised through `Insights.upsert`, so running a report again updates the same insight (keyed
 * by group and month) instead of adding one, and leaves its triage (status, assignee) alone.
 */
import { Effect } from "effect"
import { InsightUpsert } from "../insights/Domain.js"
import { Insights } from "../insights/Insights.js"
import type { Actor } from "../shared/Actor.js"
import type { AttributionReport, GroupAttribution } from "./AttributionService.js"
import { raisesBudgetExceeded } from "./Budget.js"

/** Overspending by this share of the budget or more is `high` severity, less is `medium`. */
export const HIGH_SEVERITY_OVERSPEND = 0.2

/** The insight's natural key within its type: one per group and month. */
export const resourceIdOf = (attribution: GroupAttribution, month: string) => `${attribution.group.id}/${month}`

const credits = (value: number) => `${Number(value.toFixed(2))} credits`

/**
 * Credits to the millionth: a sum of many floats depends, in its last bits, on the order it was
 * added in, and the insight must not change (nor its ETag move) when only that order did.
 */
const microCredits = (value: number) => Math.round(value * 1e6) / 1e6

/** The insight for a group over budget; none for any other status. */
export const budgetExceededInsight = (report: AttributionReport, attribution: GroupAttribution): InsightUpsert | undefined => {
  const { budget, group } = attribution
  if (!raisesBudgetExceeded(attribution) || budget === null) return undefined
  const spent = microCredits(attribution.spent)
  const overspend = microCredits(spent - budget)
  return new InsightUpsert({
    insight_type: "budget_exceeded",
    resource_type: "usage_group",
    resource_id: resourceIdOf(attribution, report.month),
    title: `${group.name} is over budget in ${report.month}`,
    description: `Usage group '${group.name}' of '${report.set.name}' used ${credits(spent)} in ${report.month}, ` +
      `${credits(overspend)} over its monthly budget of ${credits(budget)}.`,
    severity: budget === 0 || overspend >= HIGH_SEVERITY_OVERSPEND * budget ? "high" : "medium",
    is_current: true,
    dw_id: null,
    connection_id: null,
    // Staying within the budget saves at least the overspend.
    potential_savings: overspend,
    details: {
      usage_group_set_id: report.set.id,
      usage_group_id: group.id,
      month: report.month,
      spent,
      budget,
      records: attribution.records
    }
  })
}

/** Upserts the insight of every group over budget in the report; returns what each upsert did. */
export const raiseBudgetAlerts = (actor: Actor, report: AttributionReport) =>
  Effect.flatMap(Insights, (insights) =>
    Effect.forEach(
      report.groups.flatMap((attribution) => budgetExceededInsight(report, attribution) ?? []),
      (insight) => insights.upsert(actor, report.set.organization_id, insight)
    ))
