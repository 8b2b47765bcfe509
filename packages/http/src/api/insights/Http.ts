/**
 * Handlers of the insights group: call core's `Insights` / `InsightQueries` for the caller's
 * tenant and carry the ETag in the headers. Permissions are the endpoints' declarations (`Api.ts`),
 * enforced before a handler runs.
 */
import { ETag, Insight, InsightQueries, Insights } from "@costline/core"
import { Effect, Function } from "effect"
import { CostlineApi } from "../Api.js"
import { Caller } from "../Caller.js"
import * as Encoded from "../Encoded.js"
import { toPage } from "../Pages.js"
import * as Preconditions from "../Preconditions.js"
import * as Respond from "../Respond.js"
import { NotModified } from "./Api.js"
import { toListQuery } from "./Params.js"
import * as Group from "../Group.js"

/** `getInsight` answers an insight or a 304, so its success is encoded here (see `Encoded`). */
const insightOk = Encoded.ok(Insight.Insight)

const withEtag = (insight: Insight.Insight) => Effect.as(Respond.setHeaders({ etag: insight.etag }), insight)

export const InsightsHttpLive = Group.group(CostlineApi, "insights", (handlers) =>
  Effect.gen(function*() {
    const insights = yield* Insights.Insights
    const queries = yield* InsightQueries.InsightQueries

    return handlers
      .handle("listInsights", ({ urlParams }) =>
        Effect.gen(function*() {
          const caller = yield* Caller
          const page = yield* insights.list(caller.organizationId, toListQuery(urlParams))
          return toPage(page, Function.identity)
        }))
      .handle("queryInsights", ({ payload }) => Effect.flatMap(Caller, (caller) => queries.run(caller.organizationId, payload)))
      .handle("getInsight", ({ headers, path }) =>
        Effect.gen(function*() {
          const caller = yield* Caller
          const insight = yield* withEtag(yield* insights.get(caller.organizationId, yield* Insights.parseInsightId(path.insight_id)))
          const ifNoneMatch = headers["if-none-match"]
          // Weak comparison, as RFC 9110 asks for If-None-Match.
          if (ifNoneMatch !== undefined && ETag.matchesWeakly(yield* ETag.parse("if-none-match", ifNoneMatch), insight.etag)) {
            return new NotModified()
          }
          return yield* insightOk(insight)
        }))
      .handle("updateInsight", ({ headers, path, payload }) =>
        Effect.gen(function*() {
          const caller = yield* Caller
          const id = yield* Insights.parseInsightId(path.insight_id)
          const precondition = yield* Preconditions.required(headers, "the insight")
          const updated = yield* withEtag(yield* insights.update(caller.actor, caller.organizationId, id, payload, precondition))
          return updated
        }))
      .handle("recordInsightView", ({ path }) =>
        Effect.gen(function*() {
          const caller = yield* Caller
          yield* insights.recordView(caller.principal, caller.organizationId, yield* Insights.parseInsightId(path.insight_id))
        }))
  }))
