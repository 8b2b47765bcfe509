/**
 * The shape every analysis rule shares: a pure function from the parsed query, its execution
 * statistics and its history to zero or more findings.
 */
import type { Insight, QueryAnalysis } from "@costline/core"
import type { ParsedQuery } from "../SqlParse.js"

export interface RuleInput {
  readonly query: ParsedQuery
  readonly statistics: QueryAnalysis.QueryStatistics | undefined
  /** How many executions share this query's parameterized hash, when a history is available. */
  readonly occurrences: number | undefined
}

/** An insight before the analyzer says whether a code change can be generated for it. */
export type Finding = Omit<QueryAnalysis.QueryInsightV2, "code_change_available">

export interface Rule {
  readonly insightType: QueryAnalysis.QueryInsightType
  /**
   * `sql`: the query text alone decides. `execution`: the rule needs statistics or history and
   * stays silent without them.
   */
  readonly basis: "sql" | "execution"
  readonly detect: (input: RuleInput) => ReadonlyArray<Finding>
}

/** Outputs this large make sorting, de-duplicating and joining expensive enough to matter. */
export const LARGE_OUTPUT_ROWS = 100_000

/** Scans this large make reading unneeded columns or partitions a visible share of the bill. */
export const LARGE_SCAN_BYTES = 10 * 1024 ** 3

export interface FindingParts {
  readonly severity: Insight.Severity
  readonly title: string
  readonly description: string
  readonly recommendation: string
  readonly evidence: QueryAnalysis.Evidence
  readonly location?: QueryAnalysis.SourceLocation | undefined
  readonly potentialSavings?: number | undefined
}

/** Savings are estimates; six decimals of a credit are more than enough and hide float noise. */
const roundCredits = (credits: number) => Math.round(Math.max(0, credits) * 1e6) / 1e6

export const finding = (insightType: QueryAnalysis.QueryInsightType, parts: FindingParts): Finding => ({
  insight_type: insightType,
  severity: parts.severity,
  title: parts.title,
  description: parts.description,
  recommendation: parts.recommendation,
  evidence: parts.evidence,
  ...(parts.location !== undefined ? { location: parts.location } : {}),
  ...(parts.potentialSavings !== undefined ? { potential_savings: roundCredits(parts.potentialSavings) } : {})
})
