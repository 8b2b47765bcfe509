/**
 * `union_without_all`: `UNION` (or `UNION DISTINCT`) de-duplicates the combined result, a sort or
 * hash over every row. When the branches cannot overlap, `UNION ALL` gives the same rows for free.
 */
import { isDeduplicatingUnion, isNode, locationOf, selectsOf, setOperatorOf } from "../SqlAst.js"
import { finding, LARGE_OUTPUT_ROWS, type Rule } from "./Rule.js"

export const unionWithoutAll: Rule = {
  insightType: "union_without_all",
  basis: "sql",
  detect: ({ query, statistics }) => {
    const unions = query.statements.flatMap((statement) =>
      selectsOf(statement).filter(({ select }) => isDeduplicatingUnion(setOperatorOf(select)))
    )
    if (unions.length === 0) return []
    const largeOutput = (statistics?.rows_produced ?? 0) >= LARGE_OUTPUT_ROWS
    const firstNext = unions[0]!.select._next
    return [finding("union_without_all", {
      severity: largeOutput ? "medium" : "low",
      title: "UNION removes duplicates",
      description: `The query uses UNION ${unions.length === 1 ? "once" : `${unions.length} times`}; each ` +
        "de-duplicates the combined rows of its branches.",
      recommendation: "Use UNION ALL where the branches cannot return the same row or duplicates are acceptable.",
      evidence: { union_count: unions.length },
      location: isNode(firstNext) ? locationOf(firstNext) : undefined
    })]
  }
}
