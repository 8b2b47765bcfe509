import { describe, expect, it } from "@effect/vitest"
import { Effect, Either, Layer } from "effect"
import { QueryAnalysis } from "@costline/core"
import { analyze, layer } from "../src/QueryAnalyzer.js"
import { parameterizedHash } from "../src/SqlParse.js"
import { deterministic, workers } from "./helpers.js"

const everything = () => true

describe("analyze", () => {
  it("finds nothing in a clean query with healthy statistics", () => {
    const request = new QueryAnalysis.AnalyzeQueryRequest({
      query_text: "SELECT o.id, c.name FROM orders o JOIN customers c ON o.customer_id = c.id WHERE o.day = '2024-05-01'",
      statistics: {
        execution_time_ms: 1_200,
        queued_time_ms: 0,
        bytes_scanned: 5_000_000,
        bytes_spilled_local: 0,
        bytes_spilled_remote: 0,
        partitions_scanned: 12,
        partitions_total: 5_000,
        rows_scanned: 40_000,
        rows_produced: 3_000,
        warehouse_size: "Small",
        credits_used: 0.01
      }
    })
    expect(analyze(request, { canGenerate: everything })).toEqual(Either.right([]))
  })

  it("defaults to Snowflake and fails unparsable SQL with its line and column", () => {
    const result = analyze(new QueryAnalysis.AnalyzeQueryRequest({ query_text: "SELECT a\nFROM t\nWHERE" }), { canGenerate: everything })
    const error = Either.getLeft(result)
    expect(error._tag === "Some" && error.value.details[0]).toMatchObject({
      field: "query_text",
      message: expect.stringMatching(/snowflake SQL: unexpected end of query at line 3, column 6/)
    })
  })

  it("lists findings most severe first and marks which can be fixed", () => {
    const request = new QueryAnalysis.AnalyzeQueryRequest({
      query_text: "SELECT * FROM a, b",
      dialect: "postgres",
      statistics: { bytes_spilled_remote: 1, rows_produced: 10 }
    })
    const insights = Either.getOrThrow(analyze(request, { canGenerate: (type) => type === "select_star" }))
    expect(insights.map((insight) => [insight.insight_type, insight.severity, insight.code_change_available])).toEqual([
      ["query_remote_spill", "high", false],
      ["cartesian_join", "medium", false],
      ["select_star", "low", true]
    ])
  })

  it("finds a repeated query through the history of parameterized hashes", () => {
    const history = new Map([[parameterizedHash("SELECT a FROM t WHERE id = 1", "snowflake"), 40]])
    const request = new QueryAnalysis.AnalyzeQueryRequest({ query_text: "SELECT a FROM t WHERE id = 99" })
    const insights = Either.getOrThrow(analyze(request, { history, canGenerate: everything }))
    expect(insights.map((insight) => insight.insight_type)).toEqual(["repeated_query"])
  })
})

describe("QueryAnalyzer", () => {
  it.effect("asks CodeChanges what it can fix", () =>
    Effect.gen(function*() {
      const analyzer = yield* QueryAnalysis.QueryAnalyzer
      const request = new QueryAnalysis.AnalyzeQueryRequest({
        query_text: "SELECT * FROM t",
        statistics: { bytes_spilled_local: 2 * 1024 ** 3 }
      })
      const insights = yield* analyzer.analyze(request)
      expect(insights.map((insight) => [insight.insight_type, insight.code_change_available])).toEqual([
        ["query_local_spill", false],
        ["select_star", true]
      ])
    }).pipe(Effect.provide(layer.pipe(Layer.provideMerge(deterministic), Layer.provide(workers)))))
})
