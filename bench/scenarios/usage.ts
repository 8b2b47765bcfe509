/**
 * `usage_attribution`: GET /v2/usage-group-sets/{id}/attribution?month= over the seeded month of
 * usage records (a million in the full run) and a set of 50 groups: one pass over every record
 * of the month, each given to the first group whose filter matches. Timed one request at a time
 * (see MeasureTimed), in usage records read per second, with the peak RSS of each server, and
 * the latency of `/healthz` asked meanwhile (`usage_attribution_probe`: the event loop stays free).
 */
import { nearlyEqual } from "../lib/Answer.js"
import type { Request } from "../lib/Load.js"
import type { ScenarioContext, TimedScenario } from "../lib/Scenario.js"
import { MONTH_WITHOUT_USAGE } from "../lib/UsageData.js"

const usageOf = ({ seeded }: ScenarioContext) => {
  if (seeded.usage === undefined) throw new Error("usage_attribution needs seeded usage records")
  return seeded.usage
}

const attributionOf = (context: ScenarioContext, month: string): Request => ({
  method: "GET",
  path: `/v2/usage-group-sets/${usageOf(context).setId}/attribution?month=${month}`,
  headers: context.headers
})

export const usageAttribution: TimedScenario = {
  kind: "timed",
  name: "usage_attribution",
  unit: "rows/s",
  unitsPerRequest: (context) => usageOf(context).records,
  request: (context) => attributionOf(context, usageOf(context).month),
  // The same set, groups and scan set-up, over no records.
  warmUp: (context) => attributionOf(context, MONTH_WITHOUT_USAGE),
  // Credits are float sums, and a Postgres scan may read the rows in another order each time.
  sameAnswer: (ours, baseline) => nearlyEqual(ours, baseline),
  // `usage_attribution_probe`: the latency of /healthz while an attribution runs.
  probeDuring: "/healthz"
}
