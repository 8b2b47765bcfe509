import { describe, expect, it } from "@effect/vitest"
import { poorPartitionPruning } from "../../src/rules/PoorPartitionPruning.js"
import { runRule } from "../helpers.js"

const SQL = "SELECT SUM(amount) FROM sales.events WHERE YEAR(event_date) = 2024"

describe("poor_partition_pruning", () => {
  it("flags a near-full scan of a large table, with savings", () => {
    const [finding] = runRule(poorPartitionPruning, SQL, {
      statistics: { partitions_scanned: 9_800, partitions_total: 10_000, credits_used: 4 }
    })
    expect(finding?.severity).toBe("high")
    expect(finding?.evidence).toMatchObject({ partitions_scanned: 9_800, partitions_total: 10_000, tables: ["sales.events"] })
    // 4 credits × (0.98 − 0.1) / 0.98
    expect(finding?.potential_savings).toBeCloseTo((4 * 0.88) / 0.98)
  })

  it("is medium between the poor and full-scan ratios", () => {
    const [finding] = runRule(poorPartitionPruning, SQL, { statistics: { partitions_scanned: 8_500, partitions_total: 10_000 } })
    expect(finding?.severity).toBe("medium")
    expect(finding?.potential_savings).toBeUndefined()
  })

  it("ignores small tables and good pruning", () => {
    expect(runRule(poorPartitionPruning, SQL, { statistics: { partitions_scanned: 90, partitions_total: 100 } })).toEqual([])
    expect(runRule(poorPartitionPruning, SQL, { statistics: { partitions_scanned: 500, partitions_total: 10_000 } })).toEqual([])
    expect(runRule(poorPartitionPruning, SQL)).toEqual([])
  })
})
