import { describe, expect, it } from "@effect/vitest"
import { cartesianJoin } from "../../src/rules/CartesianJoin.js"
import { runRule } from "../helpers.js"

const tablesOf = (sql: string, dialect?: "postgres" | "bigquery" | "databricks") =>
  runRule(cartesianJoin, sql, dialect === undefined ? {} : { dialect })[0]?.evidence.tables

describe("cartesian_join", () => {
  it("flags a comma join without a WHERE link", () => {
    expect(tablesOf("SELECT a.x, b.y FROM a, b WHERE a.flag = 1")).toEqual(["b"])
  })

  it("flags CROSS JOIN in every dialect", () => {
    expect(tablesOf("SELECT * FROM a CROSS JOIN b")).toEqual(["b"])
    expect(tablesOf("SELECT * FROM a CROSS JOIN b", "postgres")).toEqual(["b"])
    expect(tablesOf("SELECT * FROM a CROSS JOIN b", "bigquery")).toEqual(["b"])
    expect(tablesOf("SELECT * FROM a CROSS JOIN b", "databricks")).toEqual(["b"])
  })

  it("flags trivial ON conditions", () => {
    expect(tablesOf("SELECT * FROM a JOIN b ON 1 = 1")).toEqual(["b"])
    expect(tablesOf("SELECT * FROM a JOIN b ON b.active = TRUE")).toEqual(["b"])
    expect(tablesOf("SELECT * FROM a JOIN b ON a.x = a.x")).toEqual(["b"])
    expect(tablesOf("SELECT * FROM a JOIN b ON flag = 1")).toEqual(["b"])
  })

  it("is high when the output is large", () => {
    const [finding] = runRule(cartesianJoin, "SELECT * FROM a, b", { statistics: { rows_produced: 5_000_000 } })
    expect(finding?.severity).toBe("high")
  })

  it("accepts joins with a condition relating both sides", () => {
    expect(runRule(cartesianJoin, "SELECT * FROM a JOIN b ON a.id = b.a_id")).toEqual([])
    expect(runRule(cartesianJoin, "SELECT * FROM a, b WHERE a.id = b.a_id AND a.flag = 1")).toEqual([])
    expect(runRule(cartesianJoin, "SELECT * FROM a JOIN b USING (id)")).toEqual([])
    expect(runRule(cartesianJoin, "SELECT * FROM a NATURAL JOIN b")).toEqual([])
    expect(runRule(cartesianJoin, "SELECT * FROM a JOIN b ON a.d BETWEEN b.start_d AND b.end_d")).toEqual([])
    expect(runRule(cartesianJoin, "SELECT * FROM a JOIN b ON ST_INTERSECTS(a.geo, b.geo)")).toEqual([])
  })

  it("accepts lateral table functions and one-row subqueries", () => {
    expect(runRule(cartesianJoin, "SELECT f.value FROM t, LATERAL FLATTEN(input => t.arr) f")).toEqual([])
    expect(runRule(cartesianJoin, "SELECT t.a FROM t CROSS JOIN (SELECT MAX(d) AS m FROM u) latest")).toEqual([])
  })
})
