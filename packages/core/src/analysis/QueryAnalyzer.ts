/**
 * The query analyzer: parses a query, runs every rule over the parse tree and the execution
 * statistics, and lists what it found, most severe first. An empty list means the query was
 * examined and nothing was found.
 */
import { Context, Effect, Either, Layer } from "effect"
import type { ValidationFailed } from "../shared/Errors.js"
import { CodeChanges } from "./CodeChanges.js"
import { detect, type QueryHistory } from "./Detect.js"
import { type AnalyzeQueryRequest, type QueryInsightType, QueryInsightV2 } from "./Domain.js"
import { parse } from "./SqlParse.js"

/** Analyzes one request; `canGenerate` tells whether a code change can be generated for a type. */
export const analyze = (
  request: AnalyzeQueryRequest,
  options: { readonly history?: QueryHistory | undefined; readonly canGenerate: (insightType: QueryInsightType) => boolean }
): Either.Either<ReadonlyArray<QueryInsightV2>, ValidationFailed> =>
  Either.map(parse(request.query_text, request.dialect), (query) =>
    detect(query, { statistics: request.statistics, history: options.history }).map((finding) =>
      new QueryInsightV2({ ...finding, code_change_available: options.canGenerate(finding.insight_type) })
    ))

export class QueryAnalyzer extends Context.Tag("@costline/core/QueryAnalyzer")<
  QueryAnalyzer,
  {
    /** Unparsable SQL → ValidationFailed on `query_text` with the line and column. */
    readonly analyze: (
      request: AnalyzeQueryRequest,
      history?: QueryHistory
    ) => Effect.Effect<ReadonlyArray<QueryInsightV2>, ValidationFailed>
  }
>() {}

export const make = Effect.map(CodeChanges, (codeChanges) =>
  QueryAnalyzer.of({
    analyze: (request, history) => analyze(request, { history, canGenerate: codeChanges.supports })
  }))

export const layer: Layer.Layer<QueryAnalyzer, never, CodeChanges> = Layer.effect(QueryAnalyzer, make)
