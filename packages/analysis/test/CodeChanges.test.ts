import { describe, expect, it } from "@effect/vitest"
import { applyPatch } from "diff"
import { Effect, Layer } from "effect"
import { QueryAnalysis } from "@costline/core"
import { layerWithModel, queryDiff } from "../src/CodeChanges.js"
import { LanguageModel, type Prompt } from "../src/LanguageModel.js"
import { deterministic, workers } from "./helpers.js"

const request = (query_text: string, insight_type: QueryAnalysis.QueryInsightType, tables?: Record<string, [string, ...Array<string>]>) =>
  new QueryAnalysis.CodeChangeRequest({ query_text, insight_type, ...(tables === undefined ? {} : { context: { tables } }) })

const generate = (req: QueryAnalysis.CodeChangeRequest) => Effect.flatMap(QueryAnalysis.CodeChanges, (changes) => changes.generate(req))

/** A model that answers every prompt with `answer` and remembers the prompts. */
const fakeModel = (answer: Effect.Effect<string, QueryAnalysis.ModelUnavailable>) => {
  const prompts: Array<Prompt> = []
  const layer = layerWithModel.pipe(Layer.provide(workers), Layer.provide(Layer.succeed(LanguageModel, LanguageModel.of({
    generatedBy: { provider: "openai-compatible", model: "test-model" },
    complete: (prompt) => Effect.sync(() => prompts.push(prompt)).pipe(Effect.zipRight(answer))
  }))))
  return { layer, prompts }
}

describe("queryDiff", () => {
  it("is a unified diff that turns the original into the suggestion", () => {
    const original = "SELECT *\nFROM orders\nORDER BY id"
    const suggested = "SELECT id, amount\nFROM orders\nORDER BY id"
    const diff = queryDiff(original, suggested)
    expect(diff).toContain("--- original.sql")
    expect(diff).toContain("+++ suggested.sql")
    expect(diff).toContain("-SELECT *\n+SELECT id, amount\n")
    expect(applyPatch(`${original}\n`, diff)).toBe(`${suggested}\n`)
  })
})

describe("CodeChanges with the deterministic rewriter", () => {
  it.effect("returns the rewrite with its diff, provider and review flag", () =>
    Effect.gen(function*() {
      const change = yield* generate(request("SELECT a FROM t ORDER BY a", "unbounded_sort"))
      expect(change.suggested_query).toBe("SELECT a FROM t ORDER BY a\nLIMIT 1000")
      expect(applyPatch(`${change.original_query}\n`, change.diff)).toBe(`${change.suggested_query}\n`)
      expect(change.generated_by).toEqual({ provider: "builtin", model: "deterministic-rewriter" })
      expect(change.review_required).toBe(true)
      expect(change.insight_type).toBe("unbounded_sort")
      expect(change.warnings).toHaveLength(1)
      expect(change.explanation).toMatch(/LIMIT 1000/)
    }).pipe(Effect.provide(deterministic)))

  it.effect("supports only what the rewriter can fix", () =>
    Effect.gen(function*() {
      const changes = yield* QueryAnalysis.CodeChanges
      expect(changes.supports("select_star")).toBe(true)
      expect(changes.supports("exploding_join")).toBe(false)
      expect(changes.supports("queued_warehouse")).toBe(false)
    }).pipe(Effect.provide(deterministic)))

  it.effect("rejects unparsable SQL with its position", () =>
    Effect.gen(function*() {
      const error = yield* Effect.flip(generate(request("SELECT a FROM t ORDER", "unbounded_sort")))
      expect(error._tag).toBe("ValidationFailed")
      expect(error.message).toMatch(/line 1, column 22/)
    }).pipe(Effect.provide(deterministic)))

  it.effect("rejects opportunities a rewrite cannot address, and ones the query does not show", () =>
    Effect.gen(function*() {
      const warehouse = yield* Effect.flip(generate(request("SELECT 1", "oversized_warehouse")))
      expect(warehouse._tag === "ValidationFailed" && warehouse.details[0]).toMatchObject({ field: "insight_type", issue: "not_query_level" })
      const absent = yield* Effect.flip(generate(request("SELECT a FROM t", "select_star")))
      expect(absent._tag === "ValidationFailed" && absent.details[0]).toMatchObject({ field: "insight_type", issue: "not_found" })
    }).pipe(Effect.provide(deterministic)))

  it.effect("passes on the rewriter's refusal", () =>
    Effect.gen(function*() {
      const error = yield* Effect.flip(generate(request("SELECT * FROM t", "select_star")))
      expect(error._tag === "ValidationFailed" && error.details[0]?.field).toBe("context.tables")
    }).pipe(Effect.provide(deterministic)))
})

describe("CodeChanges with a language model", () => {
  it.effect("asks the model with the finding and reads its answer", () => {
    const model = fakeModel(Effect.succeed("```sql\nSELECT id FROM orders\n```\nOnly the id is used."))
    return Effect.gen(function*() {
      const change = yield* generate(request("SELECT * FROM orders", "select_star", { orders: ["id", "amount"] }))
      expect(change.suggested_query).toBe("SELECT id FROM orders")
      expect(change.explanation).toBe("Only the id is used.")
      expect(change.generated_by).toEqual({ provider: "openai-compatible", model: "test-model" })
      expect(change.warnings[0]).toMatch(/language model/)
      expect(model.prompts[0]?.user).toContain("Evidence: {\"tables\":[\"orders\"],\"star_count\":1}")
      expect(model.prompts[0]?.user).toContain("- orders: id, amount")
    }).pipe(Effect.provide(model.layer))
  })

  it.effect("supports every query-level opportunity", () =>
    Effect.gen(function*() {
      const changes = yield* QueryAnalysis.CodeChanges
      expect(changes.supports("exploding_join")).toBe(true)
      expect(changes.supports("query_remote_spill")).toBe(true)
      expect(changes.supports("repeated_query")).toBe(false)
    }).pipe(Effect.provide(fakeModel(Effect.succeed("")).layer)))

  it.effect("reports an answer that does not parse as invalid output", () =>
    Effect.gen(function*() {
      const error = yield* Effect.flip(generate(request("SELECT a FROM t1 UNION SELECT a FROM t2", "union_without_all")))
      expect(error._tag).toBe("ModelOutputInvalid")
      expect(error.message).toMatch(/openai-compatible produced an unusable suggestion: suggested query does not parse/)
    }).pipe(Effect.provide(fakeModel(Effect.succeed("```sql\nSELECT a FROM t1 UNION ALL\n```")).layer)))

  it.effect("reports the query returned unchanged, or no answer, as invalid output", () =>
    Effect.gen(function*() {
      const unchanged = fakeModel(Effect.succeed("```sql\nSELECT  a FROM t1 UNION SELECT a FROM t2\n```"))
      const same = yield* Effect.flip(generate(request("SELECT a FROM t1 UNION SELECT a FROM t2", "union_without_all")))
        .pipe(Effect.provide(unchanged.layer))
      expect(same.message).toMatch(/original unchanged/)
      const empty = yield* Effect.flip(generate(request("SELECT a FROM t1 UNION SELECT a FROM t2", "union_without_all")))
        .pipe(Effect.provide(fakeModel(Effect.succeed("")).layer))
      expect(empty._tag).toBe("ModelOutputInvalid")
    }))

  it.effect("passes on the model being unavailable", () =>
    Effect.gen(function*() {
      const error = yield* Effect.flip(generate(request("SELECT a FROM t ORDER BY a", "unbounded_sort")))
      expect(error._tag).toBe("ModelUnavailable")
    }).pipe(Effect.provide(fakeModel(Effect.fail(new QueryAnalysis.ModelUnavailable({ reason: "timeout", message: "slow" }))).layer)))

  it.effect("asks about statistics-based opportunities with guidance", () => {
    const model = fakeModel(Effect.succeed("```sql\nSELECT a FROM t WHERE d >= '2024-01-01'\n```"))
    return Effect.gen(function*() {
      const change = yield* generate(request("SELECT a FROM t", "poor_partition_pruning"))
      expect(change.explanation).toBe("Rewritten to address poor_partition_pruning.")
      expect(model.prompts[0]?.user).toContain("Problem: poor_partition_pruning: The query reads most partitions")
    }).pipe(Effect.provide(model.layer))
  })
})
