/**
 * `queued_warehouse`: the query waited for a busy warehouse. Queueing costs latency rather than
 * credits, so no savings are estimated.
 */
import { WarehouseThresholds } from "@costline/core"
import { finding, type Rule } from "./Rule.js"

const { MIN_QUEUED_MS, MIN_QUEUED_SHARE } = WarehouseThresholds

/** Five minutes in the queue: the warehouse is persistently overloaded. */
export const LONG_QUEUED_MS = 5 * 60_000

export const queuedWarehouse: Rule = {
  insightType: "queued_warehouse",
  basis: "execution",
  detect: ({ statistics }) => {
    const queued = statistics?.queued_time_ms
    if (queued === undefined || queued < MIN_QUEUED_MS) return []
    const total = queued + (statistics?.compilation_time_ms ?? 0) + (statistics?.execution_time_ms ?? 0)
    if (queued / total < MIN_QUEUED_SHARE) return []
    return [finding("queued_warehouse", {
      severity: queued >= LONG_QUEUED_MS ? "high" : "medium",
      title: "Query waited in the warehouse queue",
      description: `The query queued for ${Math.round(queued / 1000)} s, ${Math.round((queued / total) * 100)}% of ` +
        "its total time, because the warehouse was busy with other queries.",
      recommendation: "Enable multi-cluster scaling, move this workload to its own warehouse, or schedule it off-peak.",
      evidence: { queued_time_ms: queued, queued_share: Math.round((queued / total) * 1000) / 1000 }
    })]
  }
}
