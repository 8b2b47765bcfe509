/**
 * `oversized_warehouse`: a query doing little work on a large warehouse. Small scans cannot use
 * the extra nodes, so the same query on a smaller size takes about as long for a fraction of the
 * credits.
 */
import { Bytes, WarehouseSize, WarehouseThresholds } from "@costline/core"
import { finding, type Rule } from "./Rule.js"

const { LARGE_WAREHOUSE_CREDITS_PER_HOUR, SMALL_WORK_BYTES, SMALL_WORK_MS } = WarehouseThresholds

/** From 2X-Large (32 credits/hour) the waste is high. */
export const HUGE_WAREHOUSE_CREDITS_PER_HOUR = 32

export const SUGGESTED_SIZE = "Small"
const SUGGESTED_CREDITS_PER_HOUR = 2

export const oversizedWarehouse: Rule = {
  insightType: "oversized_warehouse",
  basis: "execution",
  detect: ({ statistics }) => {
    const size = statistics?.warehouse_size
    const scanned = statistics?.bytes_scanned
    const rate = size === undefined ? undefined : WarehouseSize.creditsPerHour(size)
    if (size === undefined || scanned === undefined || rate === undefined) return []
    const quick = (statistics?.execution_time_ms ?? 0) <= SMALL_WORK_MS
    if (rate < LARGE_WAREHOUSE_CREDITS_PER_HOUR || scanned > SMALL_WORK_BYTES || !quick) return []
    const credits = statistics?.credits_used
    return [finding("oversized_warehouse", {
      severity: rate >= HUGE_WAREHOUSE_CREDITS_PER_HOUR ? "high" : "medium",
      title: "Small query on a large warehouse",
      description: `The query scanned ${Bytes.formatBytes(scanned)} on a ${size} warehouse (${rate} credits/hour); ` +
        "work this small cannot use the extra compute.",
      recommendation: `Run queries like this on a ${SUGGESTED_SIZE} warehouse.`,
      evidence: {
        warehouse_size: size,
        credits_per_hour: rate,
        bytes_scanned: scanned,
        suggested_size: SUGGESTED_SIZE
      },
      // Same duration on the suggested size, billed at its rate.
      potentialSavings: credits === undefined ? undefined : credits * (1 - SUGGESTED_CREDITS_PER_HOUR / rate)
    })]
  }
}
