/**
 * The built-in provider: rule-based rewrites that need no model and give the same answer every
 * time. It handles the opportunities whose fix follows from the SQL alone and refuses the rest.
 */
import type { Errors, QueryAnalysis } from "@costline/core"
import type { Either } from "effect"
import { addLimit } from "./rewrites/AddLimit.js"
import { markCartesianJoin, markPartitionFilter } from "./rewrites/Annotations.js"
import { expandStars } from "./rewrites/ExpandStars.js"
import { refuse, type Rewrite } from "./rewrites/Rewrite.js"
import { unionAll } from "./rewrites/UnionAll.js"
import type { ParsedQuery } from "./SqlParse.js"
import { tokenize } from "./SqlTokens.js"
import type { Suggestion } from "./Suggestion.js"

export const DETERMINISTIC_REWRITER: QueryAnalysis.GeneratedBy = { provider: "builtin", model: "deterministic-rewriter" }

const REWRITES: Partial<Record<QueryAnalysis.QueryInsightType, Rewrite>> = {
  select_star: expandStars,
  union_without_all: unionAll,
  unbounded_sort: addLimit,
  cartesian_join: markCartesianJoin,
  poor_partition_pruning: markPartitionFilter
}

export const deterministicFixes: ReadonlySet<QueryAnalysis.QueryInsightType> = new Set(Object.keys(REWRITES) as Array<QueryAnalysis.QueryInsightType>)

export const rewrite = (
  query: ParsedQuery,
  insightType: QueryAnalysis.QueryInsightType,
  tables: QueryAnalysis.TableColumns | undefined
): Either.Either<Suggestion, Errors.ValidationFailed> => {
  const fix = REWRITES[insightType]
  if (fix === undefined) {
    const message = `the built-in rewriter cannot fix ${insightType}; configure a language model ` +
      "(COSTLINE_LLM_BASE_URL, COSTLINE_LLM_MODEL) for suggestions"
    return refuse("unsupported", message, "insight_type")
  }
  if (query.statements.length !== 1) return refuse("unsupported", "the built-in rewriter takes one statement at a time")
  return fix({ query, statement: query.statements[0]!, tokens: tokenize(query.text, query.dialect), tables })
}
