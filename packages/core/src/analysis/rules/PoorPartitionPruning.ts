/**
 * `poor_partition_pruning`: the query read most micro-partitions of a large table, so its filters
 * (if any) did not let the warehouse skip data.
 */
import { baseTablesOf } from "../SqlAst.js"
import { finding, type Rule } from "./Rule.js"

/** Small tables are cheap to scan whole; pruning matters from about a thousand partitions. */
export const MIN_PARTITIONS = 1_000

/** Reading four in five partitions means the filters barely pruned anything. */
export const POOR_SCAN_RATIO = 0.8

/** Reading nearly everything: the query has no effective filter at all. */
export const FULL_SCAN_RATIO = 0.95

/** A selective date or partition-key predicate typically leaves about a tenth of a large table. */
export const PRUNED_SCAN_RATIO = 0.1

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
