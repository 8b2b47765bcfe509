/**
 * The query-analysis services as the API sees them. Their implementations (SQL parser, rules,
 * rewriter, language-model clients) live in @costline/analysis, so core carries neither a SQL
 * parser nor an HTTP client.
 */
import { Context, type Effect } from "effect"
import type { ValidationFailed } from "../shared/Errors.js"
import type { AnalyzeQueryRequest, CodeChange, CodeChangeRequest, GeneratedBy, QueryInsightType, QueryInsightV2 } from "./Domain.js"
import type { AnalysisBusy, ModelOutputInvalid, ModelUnavailable } from "./Errors.js"

/**
 * Executions seen per parameterized hash (QUERY_PARAMETERIZED_HASH), over whatever window the caller keeps.
 * @since 0.1.0
 * @category models
 */
export type QueryHistory = ReadonlyMap<string, number>

/**
 * @since 0.1.0
 * @category tags
 */
export class QueryAnalyzer extends Context.Tag("@costline/core/QueryAnalyzer")<
  QueryAnalyzer,
  {
    /**
     * Unparsable SQL → ValidationFailed on `query_text` with the line and column; a query that
     * takes longer than the analysis time limit → ValidationFailed `too_complex`; every analysis
     * worker busy and the queue full → AnalysisBusy.
     */
    readonly analyze: (
      request: AnalyzeQueryRequest,
      history?: QueryHistory
    ) => Effect.Effect<ReadonlyArray<QueryInsightV2>, ValidationFailed | AnalysisBusy>
  }
>() {}

/**
 * @since 0.1.0
 * @category models
 */
export type CodeChangeError = ValidationFailed | ModelUnavailable | ModelOutputInvalid | AnalysisBusy

/**
 * @since 0.1.0
 * @category tags
 */
export class CodeChanges extends Context.Tag("@costline/core/CodeChanges")<
  CodeChanges,
  {
    readonly generatedBy: GeneratedBy
    /** Whether `generate` can address this type at all (a given query may still be refused). */
    readonly supports: (insightType: QueryInsightType) => boolean
    readonly generate: (request: CodeChangeRequest) => Effect.Effect<CodeChange, CodeChangeError>
  }
>() {}
