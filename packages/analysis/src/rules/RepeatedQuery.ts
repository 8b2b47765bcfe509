/**
 * `repeated_query`: the same parameterized query (equal but for its literals) runs often, so its
 * results could be cached, materialized or computed once and shared.
 */
import { WarehouseThresholds } from "@costline/core"
import { finding, type Rule } from "./Rule.js"

const { FREQUENT_OCCURRENCES } = WarehouseThresholds

/** Ten runs in the history window: a schedule or a dashboard, not a one-off. */
export const MIN_OCCURRENCES = 10

export const repeatedQuery: Rule = {
  insightType: "repeated_query",
  basis: "execution",
  detect: ({ occurrences, statistics }) => {
    if (occurrences === undefined || occurrences < MIN_OCCURRENCES) return []
    const credits = statistics?.credits_used
    return [finding("repeated_query", {
      severity: occurrences >= FREQUENT_OCCURRENCES ? "medium" : "low",
      title: "Query runs repeatedly",
      description: `This query, ignoring its literal values, ran ${occurrences} times in the history.`,
      recommendation: "Serve repeated runs from the result cache (keep the text identical), a materialized view, " +
        "or a table refreshed on a schedule.",
      evidence: { occurrences },
      // Upper bound: every run but one served from a cache, each costing what this one did.
      potentialSavings: credits === undefined ? undefined : credits * (occurrences - 1)
    })]
  }
}
