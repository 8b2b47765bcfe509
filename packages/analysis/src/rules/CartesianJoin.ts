/**
 * `cartesian_join`: a joined table with no condition relating it to the rest of the query
 * (`CROSS JOIN`, a comma join without a WHERE link, `ON 1 = 1`, `ON b.flag = 1`), so every row
 * is paired with every row of the other side. Lateral table functions (FLATTEN, UNNEST) are
 * correlated by construction, and a subquery that returns one row (a bare aggregate) cannot
 * multiply anything: neither counts.
 */
import {
  branchesOf,
  type ColumnRef,
  columnRefsIn,
  columnsOf,
  type FromItem,
  fromItemsOf,
  groupByOf,
  isNode,
  locationOf,
  type Node,
  selectsOf
} from "../SqlAst.js"
import { finding, LARGE_OUTPUT_ROWS, type Rule } from "./Rule.js"

const CONNECTIVES = new Set(["AND", "OR"])

/** The terms of a condition joined by AND / OR: comparisons, function calls, ... */
const termsOf = (condition: unknown): ReadonlyArray<unknown> => {
  if (!isNode(condition)) return []
  return condition.type === "binary_expr" && CONNECTIVES.has(String(condition.operator).toUpperCase())
    ? [...termsOf(condition.left), ...termsOf(condition.right)]
    : [condition]
}

/** Unqualified columns could belong to any table and are given the benefit of the doubt. */
const mayBelongTo = (item: FromItem, ref: ColumnRef) =>
  ref.qualifier === undefined || ref.qualifier.toLowerCase() === (item.alias ?? item.table)?.toLowerCase()

const mayBelongElsewhere = (item: FromItem, ref: ColumnRef) =>
  ref.qualifier === undefined || ref.qualifier.toLowerCase() !== (item.alias ?? item.table)?.toLowerCase()

/** Whether some term reads a column of the joined item together with another column of the rest. */
const relates = (item: FromItem, conditions: ReadonlyArray<unknown>): boolean =>
  conditions.flatMap(termsOf).some((term) => {
    const refs = columnRefsIn(term)
    return refs.some((ref, index) =>
      mayBelongTo(item, ref) && refs.some((other, otherIndex) => otherIndex !== index && mayBelongElsewhere(item, other))
    )
  })

/** A subquery that yields exactly one row: only aggregates, no GROUP BY, no set operation. */
const yieldsOneRow = (item: FromItem): boolean => {
  const select = isNode(item.node.expr) ? item.node.expr.ast : undefined
  if (!isNode(select) || branchesOf(select).length > 1 || groupByOf(select).length > 0) return false
  const columns = columnsOf(select)
  return columns.length > 0 && columns.every((column) => isNode(column.expr) && column.expr.type === "aggr_func")
}

const isUnconstrainedJoin = (select: Node) => (item: FromItem, index: number): boolean =>
  index > 0 &&
  item.kind !== "table_function" &&
  !item.using &&
  !(item.join?.includes("NATURAL") ?? false) &&
  !yieldsOneRow(item) &&
  !relates(item, [item.on, select.where])

export const cartesianJoin: Rule = {
  insightType: "cartesian_join",
  basis: "sql",
  detect: ({ query, statistics }) => {
    const joins = query.statements.flatMap((statement) =>
      selectsOf(statement).flatMap(({ select }) => fromItemsOf(select).filter(isUnconstrainedJoin(select)))
    )
    if (joins.length === 0) return []
    const tables = joins.map((item) => item.alias ?? item.name ?? "subquery")
    const largeOutput = (statistics?.rows_produced ?? 0) >= LARGE_OUTPUT_ROWS
    return [finding("cartesian_join", {
      severity: largeOutput ? "high" : "medium",
      title: "Join without a join condition",
      description: `${tables.length === 1 ? `${tables[0]} is` : `${tables.join(", ")} are`} joined without a ` +
        "condition relating it to the rest of the query, so each of its rows is paired with every other row.",
      recommendation: "Add the join keys (ON a.key = b.key), or make the cross product explicit if it is intended " +
        "and one side is small.",
      evidence: { tables, join_count: joins.length },
      location: locationOf(joins[0]!.node)
    })]
  }
}
