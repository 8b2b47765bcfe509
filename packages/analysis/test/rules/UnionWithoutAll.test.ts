import { describe, expect, it } from "@effect/vitest"
import { unionWithoutAll } from "../../src/rules/UnionWithoutAll.js"
import { runRule } from "../helpers.js"

describe("union_without_all", () => {
  it("flags UNION, at the branch after it", () => {
    const [finding] = runRule(unionWithoutAll, "SELECT a FROM t1\nUNION\nSELECT a FROM t2")
    expect(finding?.evidence).toEqual({ union_count: 1 })
    expect(finding?.location).toEqual({ line: 3, column: 1 })
    expect(finding?.severity).toBe("low")
  })

  it("counts every UNION, nested ones included", () => {
    const sql = "SELECT a FROM t1 UNION SELECT a FROM (SELECT a FROM t2 UNION SELECT a FROM t3) s"
    expect(runRule(unionWithoutAll, sql)[0]?.evidence).toEqual({ union_count: 2 })
  })

  it("flags UNION DISTINCT in BigQuery", () => {
    expect(runRule(unionWithoutAll, "SELECT a FROM t1 UNION DISTINCT SELECT a FROM t2", { dialect: "bigquery" })).toHaveLength(1)
  })

  it("ignores UNION ALL", () => {
    expect(runRule(unionWithoutAll, "SELECT a FROM t1 UNION ALL SELECT a FROM t2")).toEqual([])
  })
})
