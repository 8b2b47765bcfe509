import { describe, expect, it } from "@effect/vitest"
import { Either, Option } from "effect"
import type { QueryAnalysis } from "@costline/core"
import { MAX_JOINS, parameterizedHash, parse } from "../src/SqlParse.js"

const failure = (sql: string, dialect: QueryAnalysis.Dialect = "snowflake") => Option.getOrUndefined(Either.getLeft(parse(sql, dialect)))

describe("parse", () => {
  it("parses each dialect's own syntax", () => {
    expect(Either.isRight(parse("SELECT a FROM db.s.t QUALIFY ROW_NUMBER() OVER (ORDER BY a) = 1", "snowflake"))).toBe(true)
    expect(Either.isRight(parse("SELECT `a` FROM `proj.ds.t` WHERE b = 'x'", "bigquery"))).toBe(true)
    expect(Either.isRight(parse("SELECT a::int FROM t WHERE b ILIKE 'x%'", "postgres"))).toBe(true)
  })

  it("parses Databricks SQL with Hive's grammar and falls back to Snowflake's for three-part names", () => {
    expect(Either.isRight(parse("SELECT a FROM t WHERE s RLIKE 'x' AND d >= date_sub(current_date(), 7)", "databricks"))).toBe(true)
    expect(Either.isRight(parse("SELECT `a` FROM main.sales.`orders`", "databricks"))).toBe(true)
  })

  it("returns one tree per statement", () => {
    const parsed = parse("SELECT 1; SELECT 2", "snowflake")
    expect(Either.getOrThrow(parsed).statements).toHaveLength(2)
  })

  it("reports where unparsable SQL goes wrong, by line and column", () => {
    const error = failure("SELECT a\nFROM t\nWHERE b = = 1")
    expect(error?._tag).toBe("ValidationFailed")
    expect(error?.details[0]?.field).toBe("query_text")
    expect(error?.details[0]?.issue).toBe("syntax_error")
    expect(error?.details[0]?.message).toMatch(/unexpected "=" at line 3, column 11/)
  })

  it("refuses a tree too deep for the rules to walk, as a ValidationFailed, not a stack overflow", () => {
    // Each `+` nests the tree a level: 33,000 terms overflowed the rules' recursive walks.
    const error = failure(`SELECT ${Array(33_000).fill("a").join("+")} FROM t`)
    expect(error?._tag).toBe("ValidationFailed")
    expect(error?.details[0]).toMatchObject({ field: "query_text", issue: "too_deep" })
    // Deep, but within the bound.
    expect(Either.isRight(parse(`SELECT ${Array(200).fill("a").join("+")} FROM t`, "snowflake"))).toBe(true)
  })

  it("refuses more JOINs than it can parse in bounded time, before parsing", () => {
    const joined = (n: number) => `SELECT * FROM t0 ${Array.from({ length: n }, (_, i) => `JOIN t${i + 1} ON t${i}.a = t${i + 1}.a`).join(" ")}`
    // 2,500 joins took 9 s of parsing on the event loop.
    const error = failure(joined(2_500))
    expect(error?.details[0]).toMatchObject({ field: "query_text", issue: "too_complex", message: `query_text has 2500 JOINs; at most ${MAX_JOINS} can be analysed` })
    expect(Either.isRight(parse(joined(MAX_JOINS), "snowflake"))).toBe(true)
    // A word JOIN inside a string or a quoted name is not a join.
    expect(Either.isRight(parse(`SELECT '${" JOIN".repeat(MAX_JOINS + 1)}' AS j FROM t`, "snowflake"))).toBe(true)
  })

  it("reports a query cut short", () => {
    expect(failure("SELECT a FROM")?.message).toMatch(/unexpected end of query at line 1, column 14/)
  })

  it("reports the Databricks error of the grammar that read furthest", () => {
    expect(failure("SELECT a FROM main.s.t WHERE", "databricks")?.message).toMatch(/line 1, column 29/)
  })

  it("rejects nesting too deep for the parser without crashing", () => {
    const deep = `SELECT ${"(".repeat(2000)}1${")".repeat(2000)}`
    expect(failure(deep)?.message).toBe("query_text does not parse as snowflake SQL")
  })

  it("rejects text without a statement", () => {
    expect(failure(";")?.details[0]?.issue).toBe("empty")
    expect(failure("-- only a comment")?.details[0]?.issue).toBe("empty")
  })
})

describe("parameterizedHash", () => {
  it("ignores literals, white space, comments and keyword case", () => {
    const a = parameterizedHash("SELECT a FROM t WHERE id = 42 AND name = 'x'", "snowflake")
    const b = parameterizedHash("select a\n  from T -- daily\n where ID = 7 and NAME = 'yy';", "snowflake")
    expect(a).toBe(b)
    expect(a).toMatch(/^[0-9a-f]{64}$/)
  })

  it("differs when the shape of the query differs", () => {
    const a = parameterizedHash("SELECT a FROM t WHERE id = 1", "snowflake")
    expect(parameterizedHash("SELECT b FROM t WHERE id = 1", "snowflake")).not.toBe(a)
    expect(parameterizedHash("SELECT a FROM t WHERE id > 1", "snowflake")).not.toBe(a)
    expect(parameterizedHash("SELECT a FROM \"T\" WHERE id = 1", "snowflake")).not.toBe(a)
  })
})
