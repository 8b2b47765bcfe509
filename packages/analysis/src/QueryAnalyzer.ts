/**
 * The query analyzer: parses a query, runs every rule over the parse tree and the execution
 * statistics, and lists what it found, most severe first. An empty list means the query was
 * examined and nothing was found. The service does it on an analysis worker thread (`SqlWorkers`).
 */
import { QueryAnalysis } from "@costline/core"
import type { Errors } from "@costline/core"
import { Effect, Either, Layer } from "effect"
import { detect } from "./Detect.js"
import { parse } from "./SqlParse.js"
import { SqlWorkers } from "./SqlWorkers.js"

/** Analyzes one request; `canGenerate` tells whether a code change can be generated for a type. */
export const analyze = (
  request: QueryAnalysis.AnalyzeQueryRequest,
  options: { readonly history?: QueryAnalysis.QueryHistory | undefined; readonly canGenerate: (insightType: QueryAnalysis.QueryInsightType) => boolean }
): Either.Either<ReadonlyArray<QueryAnalysis.QueryInsightV2>, Errors.ValidationFailed> =>
  Either.map(parse(request.query_text, request.dialect), (query) =>
    detect(query, { statistics: request.statistics, history: options.history }).map((finding) =>
      new QueryAnalysis.QueryInsightV2({ ...finding, code_change_available: options.canGenerate(finding.insight_type) })
    ))

export const make = Effect.gen(function*() {
  const codeChanges = yield* QueryAnalysis.CodeChanges
  const workers = yield* SqlWorkers
  const generatable = QueryAnalysis.QueryInsightType.literals.filter(codeChanges.supports)
  return QueryAnalysis.QueryAnalyzer.of({
    analyze: (request, history) => workers.run({ _tag: "Analyze", request, history, generatable })
  })
})

export const layer: Layer.Layer<QueryAnalysis.QueryAnalyzer, never, QueryAnalysis.CodeChanges | SqlWorkers> = Layer.effect(
  QueryAnalysis.QueryAnalyzer,
  make
)
