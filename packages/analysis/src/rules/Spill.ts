/**
 * `query_local_spill` / `query_remote_spill`: the query's working set did not fit in memory and
 * was written to the warehouse's local disk, or worse, to remote storage. The two rules differ
 * only in which statistic they read, how much spilling is tolerable and how bad it is.
 */
import { Bytes, WarehouseThresholds } from "@costline/core"
import type { Insight } from "@costline/core"
import { finding, type Rule } from "./Rule.js"

const { LOCAL_SPILL_MIN_BYTES, REMOTE_SPILL_MIN_BYTES } = WarehouseThresholds

const spillRule = (spec: {
  readonly insightType: "query_local_spill" | "query_remote_spill"
  readonly statistic: "bytes_spilled_local" | "bytes_spilled_remote"
  readonly minBytes: number
  readonly severity: Insight.Severity
  readonly where: string
}): Rule => ({
  insightType: spec.insightType,
  basis: "execution",
  detect: ({ statistics }) => {
    const spilled = statistics?.[spec.statistic]
    if (spilled === undefined || spilled < spec.minBytes) return []
    return [finding(spec.insightType, {
      severity: spec.severity,
      title: `Query spilled to ${spec.where}`,
      description: `The query spilled ${Bytes.formatBytes(spilled)} to ${spec.where} because its joins, sorts or ` +
        "aggregations did not fit in the warehouse's memory.",
      recommendation: "Reduce the data early (filter and aggregate before joining), or run it on a larger warehouse.",
      evidence: {
        [spec.statistic]: spilled,
        ...(statistics?.warehouse_size === undefined ? {} : { warehouse_size: statistics.warehouse_size })
      }
    })]
  }
})

export const queryLocalSpill = spillRule({
  insightType: "query_local_spill",
  statistic: "bytes_spilled_local",
  minBytes: LOCAL_SPILL_MIN_BYTES,
  severity: "medium",
  where: "local disk"
})

export const queryRemoteSpill = spillRule({
  insightType: "query_remote_spill",
  statistic: "bytes_spilled_remote",
  minBytes: REMOTE_SPILL_MIN_BYTES,
  severity: "high",
  where: "remote storage"
})
