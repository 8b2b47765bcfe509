/**
 * Insights: `GET /v2/insights`, `GET` and `PATCH /v2/insights/{insight_id}`,
 * `POST /v2/insights/{insight_id}/actions/viewed` and `POST /v2/insights/actions/query`.
 */
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import { Insight } from "@costline/core"
import { Schema } from "effect"
import { Access, Requires } from "../Access.js"
import { Declared } from "../Errors.js"
import { pageOf } from "../Pages.js"
import { IfMatchHeaders } from "../Preconditions.js"
import { v2 } from "../Versions.js"
import { InsightsParams } from "./Params.js"

/** Any text: an id that is no insight id names no insight, so it is a 404 rather than a 422. */
const InsightIdParam = HttpApiSchema.param("insight_id", Schema.String)

export const InsightPage = pageOf(Insight.Insight, "InsightPage")

/** `GET` with an `If-None-Match` naming the current ETag: 304, no body. */
/** How the docs page and the documents name and describe this group. */
const tag = OpenApi.annotations({
  title: "Insights",
  description: "Optimization insights on the warehouse: list and filter them, aggregate them by dimension " +
    "and measure, set their status and assignee, record that someone viewed one."
})

export class NotModified extends Schema.TaggedClass<NotModified>()("NotModified", {}) {}
const NotModifiedResponse = NotModified.pipe(HttpApiSchema.asEmpty({ status: 304, decode: () => new NotModified() }))

export const InsightQueryResult = Schema.Struct({
  /** One row per combination of the dimensions, keyed by dimension and measure names. */
  items: Schema.Array(
    Schema.Record({ key: Schema.String, value: Schema.Union(Schema.String, Schema.Number, Schema.Boolean, Schema.Null) })
  ),
  row_count: Schema.Int
}).annotations({ identifier: "InsightQueryResult" })

export class InsightsApi extends v2(
  HttpApiGroup.make("insights").annotateContext(tag)
    .add(
      HttpApiEndpoint.get("listInsights", "/insights")
        .annotate(Requires, Access.read("insights"))
        .setUrlParams(InsightsParams)
        .addSuccess(InsightPage)
        .addError(Declared.InvalidPageToken)
        .addError(Declared.ValidationFailed)
    )
    .add(
      HttpApiEndpoint.post("queryInsights", "/insights/actions/query")
        .annotate(Requires, Access.read("insights"))
        .setPayload(Insight.InsightQuery)
        .addSuccess(InsightQueryResult)
    )
    .add(
      HttpApiEndpoint.get("getInsight")`/insights/${InsightIdParam}`
        .annotate(Requires, Access.read("insights"))
        .setHeaders(Schema.Struct({ "if-none-match": Schema.optional(Schema.String) }))
        .addSuccess(Insight.Insight)
        .addSuccess(NotModifiedResponse)
        .addError(Declared.ValidationFailed)
    )
    .add(
      HttpApiEndpoint.patch("updateInsight")`/insights/${InsightIdParam}`
        .annotate(
          Requires,
          Access.write("insights", {
            target: { resource: "insights" },
            table_name: "insights",
            operation: "update",
            recordIdParam: "insight_id"
          })
        )
        .setHeaders(IfMatchHeaders)
        .setPayload(Insight.InsightUpdate)
        .addSuccess(Insight.Insight)
        .addError(Declared.Conflict)
        .addError(Declared.InvalidTransition)
        .addError(Declared.PreconditionFailed)
        .addError(Declared.PreconditionRequired)
        .addError(Declared.ValidationFailed)
    )
    .add(
      HttpApiEndpoint.post("recordInsightView")`/insights/${InsightIdParam}/actions/viewed`
        .annotate(Requires, Access.read("insights"))
        .addSuccess(HttpApiSchema.NoContent)
    )
) {}
