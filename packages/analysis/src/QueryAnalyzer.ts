/**
 * The query analyzer: parses a query, runs every rule over the parse tree and the execution
 * statistics, and lists what it found, most severe first. An empty list means the query was
 * examined and nothing was found.
 */
import {
  type AnalyzeQueryRequest,
  CodeChanges,
  QueryAnalyzer,
  type QueryHistory,
  type QueryInsightType,
  QueryInsightV2,
  type ValidationFailed
} from "@costline/core"
import { Effect, Either, Layer } from "effect"
import { detect } from "./Detect.js"
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

export const make = Effect.map(CodeChanges, (codeChanges) =>
  QueryAnalyzer.of({
    analyze: (request, history) => analyze(request, { history, canGenerate: codeChanges.supports })
  }))

export const layer: Layer.Layer<QueryAnalyzer, never, CodeChanges> = Layer.effect(QueryAnalyzer, make)
