/** Usage group sets and groups: domain, dimension catalogue, filter expressions, attribution, budgets. */
export * from "./Domain.js"
export * as UsageAttribution from "./Attribution.js"
export * as UsageBudget from "./Budget.js"
export * as UsageDimensions from "./Dimensions.js"
export * as UsageFilter from "./FilterExpression.js"
