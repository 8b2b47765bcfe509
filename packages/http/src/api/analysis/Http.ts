/**
 * Handlers of query analysis. Access is declared on the endpoints (`insights` read to analyze;
 * write to generate, which spends the model provider's capacity on the caller's behalf) and
 * enforced before decoding; neither changes a resource, so neither is audited.
 */
import { QueryAnalysis } from "@costline/core"
import { Effect } from "effect"
import { CostlineApi } from "../Api.js"
import * as Group from "../Group.js"

export const AnalysisHttpLive = Group.group(CostlineApi, "analysis", (handlers) =>
  Effect.gen(function*() {
    const analyzer = yield* QueryAnalysis.QueryAnalyzer
    const codeChanges = yield* QueryAnalysis.CodeChanges
    return handlers
      .handle("analyzeQuery", ({ payload }) =>
        Effect.map(analyzer.analyze(payload), (items) => ({ items, row_count: items.length })))
      .handle("generateCodeChange", ({ payload }) => codeChanges.generate(payload))
  }))
