/** `unbounded_sort` fix: bounds the sorted result with a LIMIT at the end of the statement. */
import { Either } from "effect"
import { unboundedSorts } from "../rules/UnboundedSort.js"
import { refuse, type Rewrite } from "./Rewrite.js"
import { applyEdits, insertAt } from "./TextEdit.js"

/** A page of results a person or a dashboard reads; the caller adjusts it to what is consumed. */
export const SUGGESTED_ROW_LIMIT = 1000

export const addLimit: Rewrite = ({ query, statement, tokens }) => {
  if (unboundedSorts([statement]).length === 0) return refuse("not_applicable", "the query's result is not sorted without a LIMIT")
  // Before a closing `;`; trailing comments stay after the new clause.
  const last = [...tokens].reverse().find((token) => token.text !== ";")!
  return Either.right({
    sql: applyEdits(query.text, [insertAt(last.end, `\nLIMIT ${SUGGESTED_ROW_LIMIT}`)]),
    explanation: `Added LIMIT ${SUGGESTED_ROW_LIMIT}: the warehouse can keep only the top rows while sorting ` +
      "instead of sorting the whole result.",
    warnings: [
      `The query now returns at most ${SUGGESTED_ROW_LIMIT} rows: set the limit to what the consumer actually reads.`
    ]
  })
}
