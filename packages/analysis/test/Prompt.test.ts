import { describe, expect, it } from "@effect/vitest"
import { Either } from "effect"
import { buildPrompt, type PromptInput, readAnswer } from "../src/Prompt.js"
import { selectStar } from "../src/rules/SelectStar.js"
import { runRule } from "./helpers.js"

/** A prompt for a query the analyzer found nothing in. */
const bare = (input: Pick<PromptInput, "queryText" | "dialect" | "insightType">) =>
  buildPrompt({ ...input, finding: undefined, tables: undefined })

describe("buildPrompt", () => {
  it("gives the dialect, the finding with its evidence, the schema and the query", () => {
    const sql = "SELECT * FROM orders"
    const [finding] = runRule(selectStar, sql)
    const prompt = buildPrompt({
      queryText: sql,
      dialect: "bigquery",
      insightType: "select_star",
      finding,
      tables: { orders: ["id", "amount"] }
    })
    expect(prompt.system).toMatch(/```sql code block/)
    expect(prompt.user).toContain("Dialect: BigQuery")
    expect(prompt.user).toContain("Problem: select_star: SELECT * reads every column")
    expect(prompt.user).toContain("Evidence: {\"tables\":[\"orders\"],\"star_count\":1}")
    expect(prompt.user).toContain("Location: line 1, column 8")
    expect(prompt.user).toContain("- orders: id, amount")
    expect(prompt.user).toContain("```sql\nSELECT * FROM orders\n```")
  })

  it("fences the query so that backticks in it cannot end the block", () => {
    const prompt = bare({ queryText: "SELECT `a` FROM t -- ```", dialect: "databricks", insightType: "select_star" })
    expect(prompt.user).toContain("````sql\nSELECT `a` FROM t -- ```\n````")
  })

  it("falls back to guidance for opportunities the text alone does not show", () => {
    const prompt = bare({ queryText: "SELECT 1", dialect: "snowflake", insightType: "query_remote_spill" })
    expect(prompt.user).toContain("Problem: query_remote_spill: The query spills to remote storage")
    expect(prompt.user).not.toContain("Schema:")
  })
})

describe("readAnswer", () => {
  it("takes the sql block and the prose around it", () => {
    const answer = "Here it is:\n```sql\nSELECT a FROM t\n```\nThis lists the column.\n"
    expect(Either.getOrThrow(readAnswer(answer))).toEqual({ sql: "SELECT a FROM t", explanation: "Here it is: This lists the column." })
  })

  it("prefers the sql block over other blocks", () => {
    const answer = "```text\nnot this\n```\n```SQL\nSELECT b FROM t\n```"
    expect(Either.getOrThrow(readAnswer(answer)).sql).toBe("SELECT b FROM t")
  })

  it("takes an unlabelled block, or a bare answer", () => {
    expect(Either.getOrThrow(readAnswer("```\nSELECT c FROM t\n```")).sql).toBe("SELECT c FROM t")
    expect(Either.getOrThrow(readAnswer("SELECT d FROM t"))).toEqual({ sql: "SELECT d FROM t", explanation: "" })
  })

  it("drops a reasoning model's thinking", () => {
    expect(Either.getOrThrow(readAnswer("<think>```sql\nSELECT 0\n```</think>```sql\nSELECT e FROM t\n```")).sql)
      .toBe("SELECT e FROM t")
  })

  it("rejects an empty answer or block", () => {
    expect(Either.isLeft(readAnswer("  \n"))).toBe(true)
    expect(Either.isLeft(readAnswer("```sql\n\n```"))).toBe(true)
  })
})
