/**
 * `unbounded_sort`: a query whose final result is sorted without a row limit, on a large output.
 * A full sort of a large result is one of the few operations that cannot be streamed or
 * parallelised cheaply, and callers rarely read more than the first rows.
 */
import { branchesOf, isNode, isSelect, locationOf, type Node, outerOrdering } from "../SqlAst.js"
import { finding, LARGE_OUTPUT_ROWS, type Rule } from "./Rule.js"

/** The first ORDER BY expression of the query's outer sort, for its location. */
const outerSortKey = (select: Node): Node | undefined => {
  const orderBy = [branchesOf(select).at(-1)!.orderby, select._orderby].find(Array.isArray)
  const first: unknown = orderBy?.[0]
  return isNode(first) && isNode(first.expr) ? first.expr : undefined
}

/** Statements that return a sorted, unlimited result (INSERT ... SELECT ... ORDER BY sorts on purpose). */
export const unboundedSorts = (statements: ReadonlyArray<Node>): ReadonlyArray<Node> =>
  statements.filter((statement) => {
    if (!isSelect(statement)) return false
    const { limited, sorted } = outerOrdering(statement)
    return sorted && !limited
  })

export const unboundedSort: Rule = {
  insightType: "unbounded_sort",
  basis: "execution",
  detect: ({ query, statistics }) => {
    const rows = statistics?.rows_produced
    if (rows === undefined || rows < LARGE_OUTPUT_ROWS) return []
    const sorted = unboundedSorts(query.statements)
    if (sorted.length === 0) return []
    const key = outerSortKey(sorted[0]!)
    return [finding("unbounded_sort", {
      severity: "medium",
      title: "Large result sorted without a limit",
      description: `The query sorts all ${rows} rows of its result; no LIMIT bounds the sort.`,
      recommendation: "Add a LIMIT for the rows the consumer reads, or drop the ORDER BY if the order is not used.",
      evidence: { rows_produced: rows },
      location: key === undefined ? undefined : locationOf(key)
    })]
  }
}
