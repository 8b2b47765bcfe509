/** The results: ratio = ours / baseline, and a table whose columns line up. */
import { describe, expect, it } from "vitest"
import { markdownTable, row, table } from "../lib/Report.js"

const figures = {
  name: "audit_export",
  store: "sqlite",
  connections: 64,
  unit: "records/s",
  p50_ms: 12.25,
  p99_ms: 40,
  baseline_p50_ms: 8,
  baseline_p99_ms: 30
}

describe("result rows", () => {
  it("divide ours by the baseline, rounded for reading", () => {
    const result = row({ ...figures, ours: 30_000.04, baseline: 45_000 })
    expect(result).toMatchObject({ ours: 30_000, baseline: 45_000, ratio: 0.67 })
  })

  it("print as a table with a header and aligned columns", () => {
    const lines = table([
      row({ ...figures, ours: 30_000, baseline: 45_000 }),
      row({ ...figures, name: "cold_start", connections: null, unit: "ms", ours: 900, baseline: 300, p50_ms: null, p99_ms: null })
    ]).split("\n")
    expect(lines).toHaveLength(4)
    expect(lines[0]).toMatch(/^scenario\s+store\s+conns\s+unit\s+ours\s+baseline\s+ratio/)
    const ratioColumn = lines[0]!.indexOf("ratio")
    expect(lines[2]!.slice(ratioColumn).trimStart().startsWith("0.67")).toBe(true)
    expect(lines[3]!.slice(ratioColumn).trimStart().startsWith("3")).toBe(true)
    expect(lines[3]).toContain(" - ")
  })
})

describe("the Markdown table", () => {
  it("has a row per figure measured under load, with CPU per request and the peer", () => {
    const lines = markdownTable([
      row({ ...figures, name: "insight_get", unit: "requests/s", ours: 9_000, baseline: 12_000, ours_cpu_us: 180, baseline_cpu_us: 80, peer: 11_000, peer_cpu_us: 95, peer_p99_ms: 3 }),
      row({ ...figures, ours: 30_000, baseline: 45_000 }),
      row({ ...figures, name: "cold_start", connections: null, unit: "ms", ours: 900, baseline: 300, p50_ms: null, p99_ms: null })
    ]).split("\n")
    expect(lines).toHaveLength(3)
    expect(lines[2]).toBe("| `insight_get` (requests/s) | sqlite | 64 | 9,000 / 12,000 / 11,000 | 0.75 (0.92) | 180 / 80 / 95 | 40 / 30 / 3 |")
  })
})
