/**
 * Query analysis: `POST /v2/insights/actions/analyze-query` and
 * `POST /v2/insights/actions/generate-code-change`. They live under `/insights` but are a group of
 * their own, and come before the insights group in `../Api.ts`, so `actions/...` is never read as
 * an `{insight_id}`.
 */
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { QueryAnalysis } from "@costline/core"
import { Schema } from "effect"
import { Access, Requires } from "../Access.js"
import { Declared } from "../Errors.js"
import { v2 } from "../Versions.js"

/** Every finding of one analysis: not paged, so no `page_token`. */
export const QueryInsightList = Schema.Struct({
  items: Schema.Array(QueryAnalysis.QueryInsightV2),
  row_count: Schema.Int
}).annotations({ identifier: "QueryInsightList" })

/** How the docs page and the documents name and describe this group. */
const tag = OpenApi.annotations({
  title: "Query analysis",
  description: "Examine one query execution for optimization opportunities, and ask for a rewrite of a " +
    "query that fixes one."
})

export class AnalysisApi extends v2(
  HttpApiGroup.make("analysis").annotateContext(tag)
    .add(
      HttpApiEndpoint.post("analyzeQuery", "/insights/actions/analyze-query")
        .annotate(Requires, Access.read("insights"))
        .setPayload(QueryAnalysis.AnalyzeQueryRequest)
        .addSuccess(QueryInsightList)
        .addError(Declared.AnalysisBusy)
    )
    .add(
      HttpApiEndpoint.post("generateCodeChange", "/insights/actions/generate-code-change")
        .annotate(Requires, Access.action("insights"))
        .setPayload(QueryAnalysis.CodeChangeRequest)
        .addSuccess(QueryAnalysis.CodeChange)
        .addError(Declared.ModelUnavailable)
        .addError(Declared.ModelOutputInvalid)
        .addError(Declared.AnalysisBusy)
    )
) {}
