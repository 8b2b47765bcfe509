import { describe, expect, it } from "@effect/vitest"
import { explodingJoin } from "../../src/rules/ExplodingJoin.js"
import { runRule } from "../helpers.js"

const JOIN = "SELECT * FROM orders o JOIN items i ON o.customer_id = i.customer_id"

describe("exploding_join", () => {
  it("flags a join producing far more rows than it read, with savings", () => {
    const [finding] = runRule(explodingJoin, JOIN, {
      statistics: { rows_scanned: 1_000_000, rows_produced: 50_000_000, credits_used: 10 }
    })
    expect(finding?.severity).toBe("high")
    expect(finding?.evidence).toEqual({ rows_produced: 50_000_000, rows_scanned: 1_000_000, ratio: 50 })
    // 10 credits × (1 − 1/50)
    expect(finding?.potential_savings).toBeCloseTo(9.8)
  })

  it("needs both row counts", () => {
    expect(runRule(explodingJoin, JOIN, { statistics: { rows_produced: 50_000_000 } })).toEqual([])
    expect(runRule(explodingJoin, JOIN)).toEqual([])
  })

  it("ignores modest fan-out and small outputs", () => {
    expect(runRule(explodingJoin, JOIN, { statistics: { rows_scanned: 1_000_000, rows_produced: 5_000_000 } })).toEqual([])
    expect(runRule(explodingJoin, JOIN, { statistics: { rows_scanned: 10_000, rows_produced: 500_000 } })).toEqual([])
  })

  it("ignores queries without joins", () => {
    const stats = { rows_scanned: 1_000_000, rows_produced: 50_000_000 }
    expect(runRule(explodingJoin, "SELECT * FROM orders", { statistics: stats })).toEqual([])
  })
})
