/** Core's usage group sets, groups and attribution reports in the v1 and v2 shapes. */
import { UsageFilter } from "@costline/core"
import type { Attribution, BudgetAlerts, Usage } from "@costline/core"
import type {
  AttributionV2,
  BudgetAlertsV2,
  UsageGroupSetDetailsV1,
  UsageGroupSetV1,
  UsageGroupSetV2,
  UsageGroupV1,
  UsageGroupV2
} from "./Shapes.js"

export const toSetV1 = (set: Usage.UsageGroupSet): typeof UsageGroupSetV1.Type => ({
  id: set.id,
  name: set.name,
  order: set.order,
  dw_account_uuid: null,
  dw_organization_name: null,
  team_id: set.team_id,
  created_at: set.created_at,
  updated_at: set.updated_at
})

export const toSetV2 = (set: Usage.UsageGroupSet): typeof UsageGroupSetV2.Type => ({
  id: set.id,
  name: set.name,
  order: set.order,
  team_id: set.team_id,
  created_at: set.created_at,
  updated_at: set.updated_at,
  etag: set.etag,
  create_time: set.created_at,
  update_time: set.updated_at
})

export const toGroupV1 = (group: Usage.UsageGroup): typeof UsageGroupV1.Type => ({
  id: group.id,
  usage_group_set_id: group.usage_group_set_id,
  usage_group_set_name: group.usage_group_set_name,
  name: group.name,
  budget: group.budget,
  order: group.order,
  filter_expression: group.filter_expression,
  filter_expression_json: UsageFilter.serialize(group.filter_expression),
  created_at: group.created_at,
  updated_at: group.updated_at
})

export const toGroupV2 = (group: Usage.UsageGroup): typeof UsageGroupV2.Type => ({
  ...toGroupV1(group),
  etag: group.etag,
  create_time: group.created_at,
  update_time: group.updated_at
})

export const toSetDetailsV1 = (
  set: Usage.UsageGroupSet,
  groups: ReadonlyArray<Usage.UsageGroup>
): typeof UsageGroupSetDetailsV1.Type => ({ ...toSetV1(set), usage_groups: groups.map(toGroupV1) })

export const toAttributionV2 = (report: Attribution.AttributionReport): typeof AttributionV2.Type => ({
  usage_group_set_id: report.set.id,
  month: report.month,
  groups: report.groups.map(({ budget, group, records, remaining, spent, status }) => ({
    usage_group_id: group.id,
    name: group.name,
    order: group.order,
    records,
    spent,
    budget,
    remaining,
    status
  })),
  unattributed: report.unattributed
})

const ALERT_RESULT = { Created: "created", Updated: "updated", Unchanged: "unchanged" } as const

export const toBudgetAlertsV2 = (run: BudgetAlerts.BudgetAlertsRun): typeof BudgetAlertsV2.Type => ({
  ...toAttributionV2(run.report),
  alerts: run.alerts.map(({ group, result }) => ({
    usage_group_id: group.id,
    insight_id: result.insight.id,
    result: ALERT_RESULT[result._tag]
  }))
})
