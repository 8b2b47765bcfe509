/** Usage group sets and groups: domain, dimension catalogue, filter expressions, attribution, budgets. */
export * from "./Domain.js"
export * from "./Repo.js"
export { Month } from "./Month.js"
export * as UsageAttribution from "./Attribution.js"
export * as UsageBudget from "./Budget.js"
export { Dimension as UsageDimension } from "./Dimensions.js"
export * as UsageDimensions from "./Dimensions.js"
export * as UsageEditable from "./Editable.js"
export * as UsageFile from "./UsageFile.js"
export * as UsageFilter from "./FilterExpression.js"
export * as UsageMonth from "./Month.js"
export {
  Attribution,
  type AttributionOptions,
  type AttributionReport,
  AttributionTimedOut,
  type GroupAttribution
} from "./AttributionService.js"
export { BudgetAlerts, type BudgetAlertsRun, budgetExceededInsight } from "./BudgetAlerts.js"
export { type ImportSummary, UsageImport, type UsageSource } from "./UsageImport.js"
/** The import's constructor and batch rules, for store tests that watch its batches (@costline/store-contract). */
export * as UsageImportService from "./UsageImport.js"
export { UsageGroups } from "./UsageGroups.js"
