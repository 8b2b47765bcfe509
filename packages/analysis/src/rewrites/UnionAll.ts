/**
 * `union_without_all` fix: UNION → UNION ALL, only where the result provably stays the same.
 * UNION removes duplicates across *and within* branches, so UNION ALL is equivalent exactly when
 * no branch can return a row twice (it is SELECT DISTINCT, or groups by columns it all selects)
 * and no two branches can return the same row (a constant "discriminator" column holds a
 * different literal in each branch, e.g. `SELECT 'web' AS channel, ...`). Anything weaker would
 * silently change results, so the rewrite is refused and the caller decides.
 */
import { Either } from "effect"
import {
  branchesOf,
  type ColumnRef,
  columnRefOf,
  columnsOf,
  groupByOf,
  isDeduplicatingUnion,
  isDistinct,
  literalOf,
  type Node,
  selectsOf,
  setOperatorOf
} from "../SqlAst.js"
import { isKeyword } from "../SqlTokens.js"
import { refuse, type Rewrite } from "./Rewrite.js"
import { applyEdits, insertAt, type TextEdit } from "./TextEdit.js"

const sameColumn = (a: ColumnRef, b: ColumnRef) =>
  a.column.toLowerCase() === b.column.toLowerCase() &&
  (a.qualifier === undefined || b.qualifier === undefined || a.qualifier.toLowerCase() === b.qualifier.toLowerCase())

/**
 * GROUP BY keys that are all selected columns (by position, or as column references: an alias
 * could name a different expression than the grouped column) make each row unique.
 */
const groupsBySelectedColumns = (select: Node): boolean => {
  const keys = groupByOf(select)
  const columns = columnsOf(select)
  const selected = columns.flatMap((column) => columnRefOf(column.expr) ?? [])
  return keys.length > 0 && keys.every((key) => {
    const position = Number(literalOf(key))
    if (Number.isInteger(position)) return position >= 1 && position <= columns.length
    const ref = columnRefOf(key)
    return ref !== undefined && selected.some((column) => sameColumn(column, ref))
  })
}

const returnsUniqueRows = (branch: Node): boolean => isDistinct(branch) || groupsBySelectedColumns(branch)

/** Some column position holds a literal in every branch, pairwise different. */
const hasDiscriminator = (branches: ReadonlyArray<Node>): boolean => {
  const width = Math.min(...branches.map((branch) => columnsOf(branch).length))
  return Array.from({ length: width }, (_, position) =>
    branches.map((branch) => literalOf(columnsOf(branch)[position]!.expr))
  ).some((values) => values.every((value) => value !== undefined) && new Set(values).size === branches.length)
}

/** Set operations whose first branch this is (a chain is listed once, by its head). */
const chainHeads = (statement: Node): ReadonlyArray<Node> => {
  const selects = selectsOf(statement).map((visit) => visit.select)
  const nexts = new Set(selects.map((select) => select._next))
  return selects.filter((select) => !nexts.has(select) && setOperatorOf(select) !== undefined)
}

const dedupingChains = (statement: Node): ReadonlyArray<ReadonlyArray<Node>> =>
  chainHeads(statement)
    .map(branchesOf)
    .filter((branches) => branches.some((branch) => isDeduplicatingUnion(setOperatorOf(branch))))

export const unionAll: Rewrite = ({ query, statement, tokens }) => {
  const chains = dedupingChains(statement)
  if (chains.length === 0) return refuse("not_applicable", "the query has no UNION without ALL")
  const provable = chains.every((branches) => branches.every(returnsUniqueRows) && hasDiscriminator(branches))
  if (!provable) {
    return refuse(
      "unsafe_rewrite",
      "UNION ALL could return rows UNION removes: make each branch SELECT DISTINCT and give each a different " +
        "constant in one column (e.g. 'web' AS source), or switch to UNION ALL yourself if duplicates are acceptable"
    )
  }
  const edits: Array<TextEdit> = tokens.flatMap((token, index) => {
    if (!isKeyword(token, "UNION")) return []
    const next = tokens[index + 1]
    if (isKeyword(next, "ALL")) return []
    return isKeyword(next, "DISTINCT")
      ? [{ start: next!.start, end: next!.end, text: "ALL" }]
      : [insertAt(token.end, " ALL")]
  })
  const unionCount = chains.flat().filter((branch) => isDeduplicatingUnion(setOperatorOf(branch))).length
  if (edits.length !== unionCount) return refuse("unsupported", "the UNIONs of this query could not be located in its text")
  return Either.right({
    sql: applyEdits(query.text, edits),
    explanation: "Replaced UNION with UNION ALL. Every branch returns distinct rows and a constant column differs " +
      "between branches, so no row can occur twice and the de-duplication over the whole result was wasted work.",
    warnings: []
  })
}
