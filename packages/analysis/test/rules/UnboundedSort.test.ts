import { describe, expect, it } from "@effect/vitest"
import { unboundedSort } from "../../src/rules/UnboundedSort.js"
import { runRule } from "../helpers.js"

const LARGE = { statistics: { rows_produced: 2_000_000 } }

describe("unbounded_sort", () => {
  it("flags ORDER BY without LIMIT on a large output, at the sort key", () => {
    const [finding] = runRule(unboundedSort, "SELECT a FROM t\nORDER BY a", LARGE)
    expect(finding?.evidence).toEqual({ rows_produced: 2_000_000 })
    expect(finding?.location).toEqual({ line: 2, column: 10 })
  })

  it("flags the trailing ORDER BY of a UNION", () => {
    expect(runRule(unboundedSort, "SELECT a FROM t1 UNION ALL SELECT a FROM t2 ORDER BY a", LARGE)).toHaveLength(1)
    expect(runRule(unboundedSort, "SELECT a FROM t1 UNION ALL SELECT a FROM t2 ORDER BY a", { ...LARGE, dialect: "bigquery" }))
      .toHaveLength(1)
  })

  it("accepts a LIMIT or TOP", () => {
    expect(runRule(unboundedSort, "SELECT a FROM t ORDER BY a LIMIT 100", LARGE)).toEqual([])
    expect(runRule(unboundedSort, "SELECT TOP 100 a FROM t ORDER BY a", LARGE)).toEqual([])
    expect(runRule(unboundedSort, "SELECT a FROM t1 UNION ALL SELECT a FROM t2 ORDER BY a LIMIT 5", LARGE)).toEqual([])
  })

  it("ignores small outputs, missing statistics and unsorted queries", () => {
    expect(runRule(unboundedSort, "SELECT a FROM t ORDER BY a", { statistics: { rows_produced: 500 } })).toEqual([])
    expect(runRule(unboundedSort, "SELECT a FROM t ORDER BY a")).toEqual([])
    expect(runRule(unboundedSort, "SELECT a FROM t", LARGE)).toEqual([])
  })

  it("ignores a sort feeding an INSERT", () => {
    expect(runRule(unboundedSort, "INSERT INTO x SELECT a FROM t ORDER BY a", LARGE)).toEqual([])
  })
})
