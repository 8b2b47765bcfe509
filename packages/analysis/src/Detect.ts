/** Runs every rule over a parsed query, most severe findings first. */
import type { Insight, QueryAnalysis } from "@costline/core"
import { type Finding, type Rule, RULES } from "./rules/index.js"
import { parameterizedHash, type ParsedQuery } from "./SqlParse.js"

export const ruleFor = (insightType: QueryAnalysis.QueryInsightType): Rule => RULES.find((rule) => rule.insightType === insightType)!

const SEVERITY_RANK: Record<Insight.Severity, number> = { high: 0, medium: 1, low: 2 }

/** Without statistics or history, the rules that need them find nothing. */
export const detect = (
  query: ParsedQuery,
  execution: { readonly statistics?: QueryAnalysis.QueryStatistics | undefined; readonly history?: QueryAnalysis.QueryHistory | undefined }
): ReadonlyArray<Finding> => {
  const occurrences = execution.history?.get(parameterizedHash(query.text, query.dialect))
  const input = { query, statistics: execution.statistics, occurrences }
  return RULES.flatMap((rule) => rule.detect(input))
    .map((finding, order) => ({ finding, order }))
    .sort((a, b) => SEVERITY_RANK[a.finding.severity] - SEVERITY_RANK[b.finding.severity] || a.order - b.order)
    .map(({ finding }) => finding)
}
