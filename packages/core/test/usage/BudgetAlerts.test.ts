import { describe, expect, it } from "@effect/vitest"
import { DateTime } from "effect"
import { OrganizationId } from "../../src/shared/Ids.js"
import type { AttributionReport, GroupAttribution } from "../../src/usage/AttributionService.js"
import { budgetExceededInsight } from "../../src/usage/BudgetAlerts.js"
import { budgetState } from "../../src/usage/Budget.js"
import { UsageGroup, UsageGroupId, UsageGroupSet, UsageGroupSetId } from "../../src/usage/Domain.js"
import { and, leaf } from "../../src/usage/FilterExpression.js"
import { Month } from "../../src/usage/Month.js"

const at = DateTime.unsafeMake("2024-05-01T00:00:00Z")
const set = new UsageGroupSet({
  id: UsageGroupSetId.make("00000000-0000-4000-8000-00000000000a"),
  organization_id: OrganizationId.make("acme"),
  name: "Cost centers",
  order: 0,
  team_id: null,
  created_at: at,
  updated_at: at,
  etag: "\"s\""
})
const group = new UsageGroup({
  id: UsageGroupId.make("00000000-0000-4000-8000-000000000001"),
  organization_id: set.organization_id,
  usage_group_set_id: set.id,
  usage_group_set_name: set.name,
  name: "ETL",
  budget: 100,
  order: 0,
  filter_expression: and(leaf(["warehouse_name"], "=", "ETL")),
  created_at: at,
  updated_at: at,
  etag: "\"g\""
})

const attribution = (spent: number, budget: number | null): GroupAttribution => ({
  group: new UsageGroup({ ...group, budget }),
  records: 7,
  ...budgetState(spent, budget)
})

const report = (...groups: Array<GroupAttribution>): AttributionReport => ({
  set,
  month: Month.make("2024-05"),
  groups,
  unattributed: { credits: 0, records: 0 }
})

const insightFor = (spent: number, budget: number | null) => {
  const one = attribution(spent, budget)
  return budgetExceededInsight(report(one), one)
}

describe("budgetExceededInsight", () => {
  it("only a group over budget raises one, keyed by group and month", () => {
    expect(insightFor(100, 100)).toBeUndefined()
    expect(insightFor(5000, null)).toBeUndefined()
    expect(insightFor(100.5, 100)).toMatchObject({
      insight_type: "budget_exceeded",
      resource_type: "usage_group",
      resource_id: `${group.id}/2024-05`,
      title: "ETL is over budget in 2024-05",
      description: "Usage group 'ETL' of 'Cost centers' used 100.5 credits in 2024-05, 0.5 credits over its monthly budget of 100 credits.",
      is_current: true,
      potential_savings: 0.5,
      details: { usage_group_set_id: set.id, usage_group_id: group.id, month: "2024-05", spent: 100.5, budget: 100, records: 7 }
    })
  })

  it("overspending by a fifth of the budget or more is high severity, less is medium", () => {
    expect(insightFor(119.99, 100)?.severity).toBe("medium")
    expect(insightFor(120, 100)?.severity).toBe("high")
    expect(insightFor(0.01, 0)?.severity).toBe("high")
  })
})

describe("budgetExceededInsight of sums added in another order", () => {
  it("is the same insight: credits count to the millionth", () => {
    const credits = [0.1, 0.2, 0.3, 1e-7, 100.7]
    const forward = credits.reduce((a, b) => a + b, 0)
    const backward = [...credits].reverse().reduce((a, b) => a + b, 0)
    expect(forward).not.toBe(backward)
    expect(insightFor(forward, 100)).toEqual(insightFor(backward, 100))
  })
})
