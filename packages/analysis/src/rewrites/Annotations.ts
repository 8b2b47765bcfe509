/**
 * Fixes the rewriter can only point at: it cannot know a table's join keys or partition column,
 * so it marks the spot with a comment and says so in a warning.
 */
import { Either } from "effect"
import { cartesianJoin } from "../rules/CartesianJoin.js"
import { baseTablesOf } from "../SqlAst.js"
import { refuse, type Rewrite, type RewriteInput } from "./Rewrite.js"
import { applyEdits, insertAt } from "./TextEdit.js"

/** Comment lines placed before the statement (after any leading comments of the author). */
const withHeader = ({ query, tokens }: RewriteInput, lines: ReadonlyArray<string>) =>
  applyEdits(query.text, [insertAt(tokens[0]!.start, lines.map((line) => `-- costline: ${line}\n`).join(""))])

export const markCartesianJoin: Rewrite = (input) => {
  const [found] = cartesianJoin.detect({
    query: { ...input.query, statements: [input.statement] },
    statistics: undefined,
    occurrences: undefined
  })
  const tables = found?.evidence.tables
  if (!Array.isArray(tables)) return refuse("not_applicable", "the query has no join without a join condition")
  return Either.right({
    sql: withHeader(input, [
      `${tables.join(", ")} ${tables.length === 1 ? "is" : "are"} joined without a join condition (cartesian product).`,
      "add the join keys, e.g. JOIN b ON a.key = b.key, unless every pairing is intended."
    ]),
    explanation: "Marked the join that has no condition relating it to the other tables: each of its rows is paired " +
      "with every row of the rest of the query.",
    warnings: [
      "Only a comment was added: the join keys cannot be inferred, and the query still computes a cartesian product."
    ]
  })
}

export const markPartitionFilter: Rewrite = (input) => {
  const tables = baseTablesOf(input.statement)
  if (tables.length === 0) return refuse("not_applicable", "the query reads no stored table")
  return Either.right({
    sql: withHeader(input, [
      `this query reads most partitions of ${tables.join(", ")}.`,
      "filter on the partition or clustering key, e.g. WHERE <date_column> >= <start_date>"
    ]),
    explanation: "Marked where a predicate on the partition or clustering key (usually a date) belongs; with it the " +
      "warehouse skips the partitions outside the range instead of scanning the whole table.",
    warnings: ["Only a placeholder comment was added: the query scans the same data until it has a real predicate."]
  })
}
