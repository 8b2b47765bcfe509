/**
 * The wire shapes of usage group sets, usage groups, their attribution and the dimension
 * catalogue. v1 follows the spec's tables; v2 mirrors v1 and adds the resource conventions
 * (`etag`, `create_time`, `update_time`) and drops the deprecated warehouse fields.
 */
import { Ids, Usage, UsageBudget, UsageDimensions, UsageMonth } from "@costline/core"
import { Schema } from "effect"
import { pageOf } from "../Pages.js"

export const UsageGroupSetV1 = Schema.Struct({
  id: Usage.UsageGroupSetId,
  name: Schema.String,
  order: Schema.Int,
  /** Deprecated by the spec; always null. */
  dw_account_uuid: Schema.Null,
  dw_organization_name: Schema.Null,
  team_id: Schema.NullOr(Ids.TeamId),
  created_at: Schema.DateTimeUtc,
  updated_at: Schema.DateTimeUtc
}).annotations({ identifier: "UsageGroupSetV1" })

export const UsageGroupV1 = Schema.Struct({
  id: Usage.UsageGroupId,
  usage_group_set_id: Usage.UsageGroupSetId,
  usage_group_set_name: Schema.String,
  name: Schema.String,
  budget: Usage.MonthlyBudget,
  order: Schema.Int,
  filter_expression: Usage.FilterExpression,
  /** The same expression as JSON text, for infrastructure-as-code tools. */
  filter_expression_json: Schema.String,
  created_at: Schema.DateTimeUtc,
  updated_at: Schema.DateTimeUtc
}).annotations({ identifier: "UsageGroupV1" })

/** The v1 detailed read: the set with its groups, in precedence order. */
export const UsageGroupSetDetailsV1 = Schema.Struct({
  ...UsageGroupSetV1.fields,
  usage_groups: Schema.Array(UsageGroupV1)
}).annotations({ identifier: "UsageGroupSetDetailsV1" })

const resourceConventions = {
  etag: Schema.String,
  create_time: Schema.DateTimeUtc,
  update_time: Schema.DateTimeUtc
}

export const UsageGroupSetV2 = Schema.Struct({
  id: Usage.UsageGroupSetId,
  name: Schema.String,
  order: Schema.Int,
  team_id: Schema.NullOr(Ids.TeamId),
  created_at: Schema.DateTimeUtc,
  updated_at: Schema.DateTimeUtc,
  ...resourceConventions
}).annotations({ identifier: "UsageGroupSet" })

export const UsageGroupV2 = Schema.Struct({ ...UsageGroupV1.fields, ...resourceConventions }).annotations({
  identifier: "UsageGroup"
})

export const UsageGroupPage = pageOf(UsageGroupV2, "UsageGroupPage")

export const GroupAttributionV2 = Schema.Struct({
  usage_group_id: Usage.UsageGroupId,
  name: Schema.String,
  order: Schema.Int,
  /** Usage records attributed to the group in the month. */
  records: Schema.Int,
  /** Credits attributed to the group in the month. */
  spent: Schema.Number,
  budget: Usage.MonthlyBudget,
  /** `budget - spent` (negative when over budget); null without a budget. */
  remaining: Schema.NullOr(Schema.Number),
  status: UsageBudget.BudgetStatus
}).annotations({ identifier: "UsageGroupAttribution" })

export const AttributionV2 = Schema.Struct({
  usage_group_set_id: Usage.UsageGroupSetId,
  month: UsageMonth.Month,
  /** Every group of the set, in precedence order. */
  groups: Schema.Array(GroupAttributionV2),
  /** Usage that no group's filter matched. */
  unattributed: Schema.Struct({ credits: Schema.Number, records: Schema.Int })
}).annotations({ identifier: "UsageAttribution" })

export const BudgetAlertV2 = Schema.Struct({
  usage_group_id: Usage.UsageGroupId,
  /** The group's `budget_exceeded` insight for the month. */
  insight_id: Schema.String,
  /** What raising did to it: `unchanged` when the attribution is what it already said. */
  result: Schema.Literal("created", "updated", "unchanged")
}).annotations({ identifier: "BudgetAlert" })

/** The attribution the alerts were raised from, and one alert per group over budget. */
export const BudgetAlertsV2 = Schema.Struct({
  ...AttributionV2.fields,
  alerts: Schema.Array(BudgetAlertV2)
}).annotations({ identifier: "BudgetAlerts" })

export const DimensionPage = Schema.Struct({
  scope: Usage.UsageScope,
  items: Schema.Array(UsageDimensions.Dimension),
  page_token: Schema.Null,
  row_count: Schema.Int
}).annotations({ identifier: "UsageDimensionPage" })

export const Success = Schema.Struct({ success: Schema.Literal(true) })
