/** Comparing answers (float sums may differ in their last bits) and reading latencies. */
import { describe, expect, it } from "vitest"
import { nearlyEqual } from "../lib/Answer.js"
import { percentile } from "../lib/MeasureTimed.js"

describe("nearly equal answers", () => {
  it("let numbers differ in their last bits, nothing else", () => {
    const answer = { groups: [{ id: "a", spent: 0.1 + 0.2, status: "on_track" }], unattributed: { credits: 3, records: 2 } }
    expect(nearlyEqual(answer, { groups: [{ id: "a", spent: 0.3, status: "on_track" }], unattributed: { credits: 3, records: 2 } })).toBe(true)
    expect(nearlyEqual(answer, { ...answer, unattributed: { credits: 3.0001, records: 2 } })).toBe(false)
    expect(nearlyEqual(answer, { ...answer, unattributed: { credits: 3 } })).toBe(false)
    expect(nearlyEqual(answer, { ...answer, extra: null })).toBe(false)
    expect(nearlyEqual([1, 2], [1, 2, 3])).toBe(false)
    expect(nearlyEqual(null, 0)).toBe(false)
    expect(nearlyEqual("1", 1)).toBe(false)
  })
})

describe("percentiles", () => {
  it("are nearest-rank: of two samples, p50 the faster and p99 the slower", () => {
    expect(percentile([30, 10], 50)).toBe(10)
    expect(percentile([30, 10], 99)).toBe(30)
    expect(percentile([5, 1, 4, 2, 3], 50)).toBe(3)
  })
})
