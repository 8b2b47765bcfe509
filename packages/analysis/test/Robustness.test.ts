import { describe, expect, it } from "@effect/vitest"
import { Either } from "effect"
import fc from "fast-check"
import { QueryAnalysis } from "@costline/core"
import { runJob } from "../src/Jobs.js"
import { analyze } from "../src/QueryAnalyzer.js"

const option = (text: string) => fc.constantFrom("", text)

/** Well-formed queries of many shapes: they reach every rule and rewrite. */
const select = fc.tuple(
  option("DISTINCT "),
  fc.constantFrom("*", "t.*", "a, b", "COUNT(*) AS n", "'k' AS k, a", "1 AS k, a"),
  fc.constantFrom("t", "t, u", "t JOIN u ON t.a = u.a", "t CROSS JOIN u", "t JOIN u ON 1 = 1", "(SELECT a FROM v) t", "db.s.t"),
  option(" WHERE EXISTS (SELECT * FROM w WHERE w.a = a)"),
  option(" GROUP BY a"),
  option(" ORDER BY a"),
  option(" LIMIT 5")
).map(([distinct, columns, from, where, groupBy, orderBy, limit]) =>
  `SELECT ${distinct}${columns} FROM ${from}${where}${groupBy}${orderBy}${limit}`
)
const wellFormed = fc.array(fc.tuple(fc.constantFrom(" UNION ", " UNION ALL "), select), { maxLength: 2 }).chain((rest) =>
  select.map((first) => first + rest.map(([operator, branch]) => operator + branch).join(""))
)

/** Fragments in any order: mostly not SQL, which must fail as a ValidationFailed. */
const fragments = fc.array(
  fc.constantFrom("SELECT", "*", "FROM", "t", ",", "JOIN", "ON", "WHERE", "(", ")", "UNION", "ORDER BY", "'s'", "1", ";", "--"),
  { maxLength: 16 }
).map((parts) => parts.join(" "))

const queryText = fc.oneof(wellFormed, fragments, fc.string({ minLength: 1, maxLength: 60 }))
  .filter((text) => text.trim() !== "")

describe("any input", () => {
  it("gives insights or a ValidationFailed, never a crash", () => {
    fc.assert(fc.property(queryText, fc.constantFrom(...QueryAnalysis.Dialect.literals), (query_text, dialect) => {
      const result = analyze(new QueryAnalysis.AnalyzeQueryRequest({ query_text, dialect }), { canGenerate: () => true })
      expect(Either.isRight(result) || result.left._tag === "ValidationFailed").toBe(true)
    }), { numRuns: 300 })
  })

  // The worker's side of a built-in code change (the service sends this job to a worker thread).
  it("gives the built-in rewriter's change or its refusal, never invalid output or a defect", () => {
    fc.assert(fc.property(queryText, fc.constantFrom(...QueryAnalysis.QueryInsightType.literals), (query_text, insight_type) => {
      const request = new QueryAnalysis.CodeChangeRequest({ query_text, insight_type, context: { tables: { t: ["a", "b"], u: ["a"] } } })
      const outcome = runJob({ _tag: "Rewrite", request })
      expect(outcome._tag === "Success" || (outcome._tag === "Failure" && (outcome.error as { _tag: string })._tag === "ValidationFailed"))
        .toBe(true)
    }), { numRuns: 300 })
  })
})
