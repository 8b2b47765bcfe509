import { describe, expect, it } from "@effect/vitest"
import { Either, Option, Schema } from "effect"
import fc from "fast-check"
import { rewrite } from "../src/DeterministicRewriter.js"
import { QueryAnalysis } from "@costline/core"
import { checkSuggestion } from "../src/Suggestion.js"
import { parsed } from "./helpers.js"

const run = (sql: string, insightType: QueryAnalysis.QueryInsightType, tables?: QueryAnalysis.TableColumns, dialect: QueryAnalysis.Dialect = "snowflake") =>
  rewrite(parsed(sql, dialect), insightType, tables)

/** The rewritten SQL, after checking it parses and differs like every suggestion must. */
const suggested = (sql: string, insightType: QueryAnalysis.QueryInsightType, tables?: QueryAnalysis.TableColumns, dialect: QueryAnalysis.Dialect = "snowflake") => {
  const result = Either.getOrThrowWith(run(sql, insightType, tables, dialect), (error) => new Error(error.message))
  expect(Either.isRight(checkSuggestion(parsed(sql, dialect), result.sql))).toBe(true)
  return result
}

const refusal = (sql: string, insightType: QueryAnalysis.QueryInsightType, tables?: QueryAnalysis.TableColumns) =>
  Option.getOrUndefined(Either.getLeft(run(sql, insightType, tables)))?.details[0]

describe("select_star rewrite", () => {
  it("refuses an expansion longer than any query the API takes, before quoting a name", () => {
    // Each name is a parse; 75,000 of them (250 joined tables of 300) held the event loop 32 s.
    const columns = Array.from({ length: 20_000 }, (_, i) => `col_${i}`) as unknown as readonly [string, ...Array<string>]
    const refused = refusal("SELECT * FROM t", "select_star", { t: columns })
    expect(refused).toMatchObject({ field: "context.tables", issue: "too_long" })
    expect(refused?.message).toMatch(new RegExp(`longer than ${QueryAnalysis.MAX_QUERY_LENGTH} characters`))
    // Within the bound, the same columns are listed.
    expect(suggested("SELECT * FROM t", "select_star", { t: columns.slice(0, 100) as unknown as readonly [string, ...Array<string>] }).sql)
      .toBe(`SELECT ${columns.slice(0, 100).join(", ")} FROM t`)
  })

  const tables: QueryAnalysis.TableColumns = { "sales.orders": ["id", "amount"], customers: ["id", "name"] }

  it("lists the columns of the table in place of the star", () => {
    expect(suggested("SELECT *\nFROM sales.orders\nWHERE amount > 10", "select_star", tables).sql)
      .toBe("SELECT id, amount\nFROM sales.orders\nWHERE amount > 10")
  })

  it("qualifies the columns when the star covers a join", () => {
    expect(suggested("SELECT * FROM sales.orders o JOIN customers c ON o.cid = c.id", "select_star", tables).sql)
      .toBe("SELECT o.id, o.amount, c.id, c.name FROM sales.orders o JOIN customers c ON o.cid = c.id")
  })

  it("expands a qualified star with its qualifier as written", () => {
    expect(suggested("SELECT c.*, o.amount FROM sales.orders o JOIN customers c ON o.cid = c.id", "select_star", tables).sql)
      .toBe("SELECT c.id, c.name, o.amount FROM sales.orders o JOIN customers c ON o.cid = c.id")
  })

  it("finds the table under its bare name, case-insensitively", () => {
    expect(suggested("SELECT * FROM PROD.SALES.CUSTOMERS", "select_star", tables).sql).toBe("SELECT id, name FROM PROD.SALES.CUSTOMERS")
  })

  it("leaves COUNT(*), stars in EXISTS and arithmetic alone", () => {
    const sql = "SELECT *, COUNT(*) OVER () * 2 AS n FROM customers WHERE EXISTS (SELECT * FROM sales.orders)"
    expect(suggested(sql, "select_star", tables).sql)
      .toBe("SELECT id, name, COUNT(*) OVER () * 2 AS n FROM customers WHERE EXISTS (SELECT * FROM sales.orders)")
  })

  it("quotes names that need it, the dialect's way", () => {
    const odd: QueryAnalysis.TableColumns = { t: ["plain", "with space", "order"] }
    expect(suggested("SELECT * FROM t", "select_star", odd).sql).toBe("SELECT plain, \"with space\", \"order\" FROM t")
    expect(suggested("SELECT * FROM t", "select_star", odd, "bigquery").sql).toBe("SELECT plain, `with space`, `order` FROM t")
  })

  it("warns that a USING join's columns now appear once per table", () => {
    const { warnings } = suggested("SELECT * FROM sales.orders JOIN customers USING (id)", "select_star", tables)
    expect(warnings.some((warning) => warning.includes("USING"))).toBe(true)
  })

  it("needs the columns of every table the star covers", () => {
    expect(refusal("SELECT * FROM sales.orders JOIN items i ON i.oid = orders.id", "select_star", tables))
      .toMatchObject({ field: "context.tables", issue: "missing", message: expect.stringContaining("i") })
    expect(refusal("SELECT * FROM customers", "select_star")).toMatchObject({ field: "context.tables" })
  })

  it("refuses a star with EXCLUDE and a query without a star", () => {
    expect(refusal("SELECT * EXCLUDE (name) FROM customers", "select_star", tables)?.issue).toBe("unsupported")
    expect(refusal("SELECT id FROM customers", "select_star", tables)?.issue).toBe("not_applicable")
  })

  it("produces SQL that parses for any column names", () => {
    const identifier = fc.oneof(
      fc.constantFrom("call", "order", "date", "current_date", "null", "true", "values", "limit", "qualify", "window"),
      fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_$]{0,8}$/),
      fc.string({ minLength: 1, maxLength: 12, unit: "binary" }).filter(Schema.is(QueryAnalysis.Identifier))
    )
    const dialect = fc.constantFrom<Array<QueryAnalysis.Dialect>>("snowflake", "databricks", "bigquery", "postgres")
    fc.assert(fc.property(fc.uniqueArray(identifier, { minLength: 1, maxLength: 5 }), dialect, (columns, dialect) => {
      const original = parsed("SELECT * FROM t", dialect)
      const result = rewrite(original, "select_star", { t: columns as [string, ...Array<string>] })
      expect(Either.isRight(result) && Either.isRight(checkSuggestion(original, result.right.sql))).toBe(true)
    }), { numRuns: 60 })
  })
})

describe("union_without_all rewrite", () => {
  const DISJOINT = "SELECT DISTINCT 'web' AS channel, user_id FROM web_visits\nUNION\nSELECT DISTINCT 'app', user_id FROM app_visits"

  it("switches to UNION ALL when branches are unique and disjoint", () => {
    const result = suggested(DISJOINT, "union_without_all")
    expect(result.sql).toBe(DISJOINT.replace("UNION", "UNION ALL"))
    expect(result.warnings).toEqual([])
  })

  it("accepts GROUP BY over the selected columns as unique", () => {
    const sql = "SELECT 1 AS src, a FROM t1 GROUP BY a UNION SELECT 2, a FROM t2 GROUP BY 2"
    expect(suggested(sql, "union_without_all").sql).toBe(sql.replace("UNION", "UNION ALL"))
  })

  it("rewrites every UNION of a chain, and BigQuery's UNION DISTINCT", () => {
    const chain = "SELECT DISTINCT 1 AS k, a FROM t1 UNION SELECT DISTINCT 2, a FROM t2 union SELECT DISTINCT 3, a FROM t3"
    expect(suggested(chain, "union_without_all").sql)
      .toBe("SELECT DISTINCT 1 AS k, a FROM t1 UNION ALL SELECT DISTINCT 2, a FROM t2 union ALL SELECT DISTINCT 3, a FROM t3")
    const bigquery = "SELECT DISTINCT 'x' AS k, a FROM t1 UNION DISTINCT SELECT DISTINCT 'y', a FROM t2"
    expect(suggested(bigquery, "union_without_all", undefined, "bigquery").sql).toBe(bigquery.replace("UNION DISTINCT", "UNION ALL"))
  })

  it("refuses when branches may overlap or repeat rows", () => {
    expect(refusal("SELECT a FROM t1 UNION SELECT a FROM t2", "union_without_all")?.issue).toBe("unsafe_rewrite")
    expect(refusal("SELECT DISTINCT 'x' AS k, a FROM t1 UNION SELECT DISTINCT 'x', a FROM t2", "union_without_all")?.issue)
      .toBe("unsafe_rewrite")
    expect(refusal("SELECT 'x' AS k, a FROM t1 UNION SELECT 'y', a FROM t2", "union_without_all")?.issue).toBe("unsafe_rewrite")
    // `a` is the grouped column, not the alias: rows of `b` may repeat.
    expect(refusal("SELECT 1 AS k, b AS a FROM t1 GROUP BY a UNION SELECT 2, a FROM t2 GROUP BY a", "union_without_all")?.issue)
      .toBe("unsafe_rewrite")
  })

  it("refuses a query without UNION", () => {
    expect(refusal("SELECT a FROM t1 UNION ALL SELECT a FROM t2", "union_without_all")?.issue).toBe("not_applicable")
  })
})

describe("unbounded_sort rewrite", () => {
  it("adds a LIMIT before the closing semicolon and warns about it", () => {
    const result = suggested("SELECT a FROM t ORDER BY a DESC;", "unbounded_sort")
    expect(result.sql).toBe("SELECT a FROM t ORDER BY a DESC\nLIMIT 1000;")
    expect(result.warnings[0]).toMatch(/at most 1000 rows/)
  })

  it("keeps a trailing comment after the new clause", () => {
    expect(suggested("SELECT a FROM t ORDER BY a -- newest", "unbounded_sort").sql).toBe("SELECT a FROM t ORDER BY a\nLIMIT 1000 -- newest")
  })

  it("refuses a query that is already limited or not sorted", () => {
    expect(refusal("SELECT a FROM t ORDER BY a LIMIT 5", "unbounded_sort")?.issue).toBe("not_applicable")
    expect(refusal("SELECT a FROM t", "unbounded_sort")?.issue).toBe("not_applicable")
  })
})

describe("cartesian_join and poor_partition_pruning rewrites", () => {
  it("marks the unconstrained join and warns that the product remains", () => {
    const result = suggested("SELECT * FROM a CROSS JOIN b", "cartesian_join")
    expect(result.sql).toMatch(/^-- costline: b is joined without a join condition/)
    expect(result.sql.endsWith("SELECT * FROM a CROSS JOIN b")).toBe(true)
    expect(result.warnings[0]).toMatch(/cartesian product/)
  })

  it("places the comment after the author's leading comment", () => {
    expect(suggested("-- report\nSELECT * FROM a, b", "cartesian_join").sql).toMatch(/^-- report\n-- costline: b is joined/)
  })

  it("marks where the partition filter belongs", () => {
    const result = suggested("SELECT SUM(x) FROM sales.events", "poor_partition_pruning")
    expect(result.sql).toMatch(/^-- costline: this query reads most partitions of sales\.events\./)
    expect(result.warnings[0]).toMatch(/placeholder/)
  })

  it("refuses when there is nothing to mark", () => {
    expect(refusal("SELECT * FROM a JOIN b ON a.id = b.id", "cartesian_join")?.issue).toBe("not_applicable")
    expect(refusal("SELECT 1", "poor_partition_pruning")?.issue).toBe("not_applicable")
  })
})

describe("rewrite", () => {
  it("cannot fix opportunities that need a model", () => {
    expect(refusal("SELECT * FROM a JOIN b ON a.k = b.k", "exploding_join")).toMatchObject({
      field: "insight_type",
      issue: "unsupported",
      message: expect.stringContaining("COSTLINE_LLM_BASE_URL")
    })
  })

  it("takes one statement at a time", () => {
    expect(refusal("SELECT a FROM t ORDER BY a; SELECT 1", "unbounded_sort")?.message).toMatch(/one statement at a time/)
  })
})
