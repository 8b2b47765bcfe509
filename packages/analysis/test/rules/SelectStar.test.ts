import { describe, expect, it } from "@effect/vitest"
import { selectStar } from "../../src/rules/SelectStar.js"
import { runRule } from "../helpers.js"

describe("select_star", () => {
  it("flags SELECT * over a table, with its location", () => {
    const [finding] = runRule(selectStar, "SELECT *\nFROM sales.orders")
    expect(finding?.insight_type).toBe("select_star")
    expect(finding?.evidence).toEqual({ tables: ["sales.orders"], star_count: 1 })
    expect(finding?.location).toEqual({ line: 1, column: 8 })
    expect(finding?.severity).toBe("low")
  })

  it("flags a qualified star over the table it names", () => {
    const [finding] = runRule(selectStar, "SELECT o.*, c.name FROM orders o JOIN customers c ON o.cid = c.id")
    expect(finding?.evidence).toEqual({ tables: ["orders"], star_count: 1 })
  })

  it("is medium when the scan is large", () => {
    const [finding] = runRule(selectStar, "SELECT * FROM t", { statistics: { bytes_scanned: 50 * 1024 ** 3 } })
    expect(finding?.severity).toBe("medium")
  })

  it("flags stars in every dialect", () => {
    for (const dialect of ["databricks", "bigquery", "postgres"] as const) {
      expect(runRule(selectStar, "SELECT * FROM t", { dialect })).toHaveLength(1)
    }
  })

  it("ignores explicit columns and COUNT(*)", () => {
    expect(runRule(selectStar, "SELECT a, COUNT(*) FROM t GROUP BY a")).toEqual([])
  })

  it("ignores a star inside EXISTS", () => {
    expect(runRule(selectStar, "SELECT a FROM t WHERE EXISTS (SELECT * FROM u WHERE u.id = t.id)")).toEqual([])
    expect(runRule(selectStar, "SELECT a FROM t WHERE NOT EXISTS (SELECT * FROM u WHERE u.id = t.id)")).toEqual([])
  })

  it("ignores a star over a CTE or a subquery that lists its columns", () => {
    expect(runRule(selectStar, "WITH c AS (SELECT a, b FROM t) SELECT * FROM c")).toEqual([])
    expect(runRule(selectStar, "SELECT * FROM (SELECT a, b FROM t) s")).toEqual([])
  })

  it("still flags the star inside the CTE", () => {
    const [finding] = runRule(selectStar, "WITH c AS (SELECT * FROM t) SELECT a FROM c")
    expect(finding?.evidence).toEqual({ tables: ["t"], star_count: 1 })
  })
})
