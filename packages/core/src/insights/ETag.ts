/** Insight ETags: the shared strong-ETag rules applied to an insight's editable state. */
import { compute } from "../shared/ETag.js"
import { detectorContentOf, type InsightEditableState } from "./Domain.js"

export * from "../shared/ETag.js"

/**
 * The ETag of an insight: what users edit and what detectors own. Fields are picked one by one so
 * that views and timestamps, which the full `Insight` also carries, can never leak into it.
 * @since 0.1.0
 * @category utils
 */
export const forInsight = (insight: InsightEditableState): string =>
  compute({ status: insight.status, assignee: insight.assignee, ...detectorContentOf(insight) })
