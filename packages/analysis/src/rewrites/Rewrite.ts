/**
 * What a deterministic rewrite receives and returns. A rewrite refuses with `ValidationFailed`
 * when the query does not have the problem, or when fixing it could change the query's result.
 */
import { Errors } from "@costline/core"
import type { QueryAnalysis } from "@costline/core"
import { Either } from "effect"
import type { Node } from "../SqlAst.js"
import type { ParsedQuery } from "../SqlParse.js"
import type { Token } from "../SqlTokens.js"
import type { Suggestion } from "../Suggestion.js"

export interface RewriteInput {
  readonly query: ParsedQuery
  /** The one statement being rewritten. */
  readonly statement: Node
  readonly tokens: ReadonlyArray<Token>
  readonly tables: QueryAnalysis.TableColumns | undefined
}

export type Rewrite = (input: RewriteInput) => Either.Either<Suggestion, Errors.ValidationFailed>

export type RefusalIssue =
  /** The query does not have the problem. */
  | "not_applicable"
  /** The fix could change the query's result. */
  | "unsafe_rewrite"
  /** The query has the problem in a form the rewriter does not handle. */
  | "unsupported"
  /** The request lacks what the fix needs (`context.tables`). */
  | "missing"
  /** The rewritten query would be longer than any query this API takes (MAX_QUERY_LENGTH). */
  | "too_long"

export const refuse = (issue: RefusalIssue, message: string, field = "query_text"): Either.Either<never, Errors.ValidationFailed> =>
  Either.left(Errors.ValidationFailed.single(field, issue, message))
