/**
 * `poor_partition_pruning`: the query read most micro-partitions of a large table, so its filters
 * (if any) did not let the warehouse skip data.
 */
import { WarehouseThresholds } from "@costline/core"
import { baseTablesOf } from "../SqlAst.js"
import { finding, type Rule } from "./Rule.js"

const { MIN_PARTITIONS, POOR_SCAN_RATIO, PRUNED_SCAN_RATIO } = WarehouseThresholds

/** Reading nearly everything: the query has no effective filter at all. */
export const FULL_SCAN_RATIO = 0.95

export const poorPartitionPruning: Rule = {
  insightType: "poor_partition_pruning",
  basis: "execution",
  detect: ({ query, statistics }) => {
    const scanned = statistics?.partitions_scanned
    const total = statistics?.partitions_total
    if (scanned === undefined || total === undefined || total < MIN_PARTITIONS) return []
    const ratio = Math.min(1, scanned / total)
    if (ratio < POOR_SCAN_RATIO) return []
    const tables = query.statements.flatMap(baseTablesOf)
    const credits = statistics?.credits_used
    return [finding("poor_partition_pruning", {
      severity: ratio >= FULL_SCAN_RATIO ? "high" : "medium",
      title: "Most partitions were scanned",
      description: `The query read ${scanned} of ${total} partitions (${Math.round(ratio * 100)}%)` +
        `${tables.length > 0 ? ` of ${tables.join(", ")}` : ""}; its filters skipped almost no data.`,
      recommendation: "Filter on the column the table is clustered or partitioned by (usually a date), with " +
        "constants rather than expressions over the column.",
      evidence: {
        partitions_scanned: scanned,
        partitions_total: total,
        scanned_ratio: Math.round(ratio * 1000) / 1000,
        tables
      },
      // Assumes cost follows partitions read and a selective predicate cuts the scan to PRUNED_SCAN_RATIO.
      potentialSavings: credits === undefined ? undefined : credits * (ratio - PRUNED_SCAN_RATIO) / ratio
    })]
  }
}
