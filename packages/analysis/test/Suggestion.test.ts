import { describe, expect, it } from "@effect/vitest"
import { Either } from "effect"
import { checkSuggestion } from "../src/Suggestion.js"
import { parsed } from "./helpers.js"

const ORIGINAL = parsed("SELECT * FROM orders")

describe("checkSuggestion", () => {
  it("accepts SQL that parses and differs", () => {
    expect(checkSuggestion(ORIGINAL, "SELECT id FROM orders")).toEqual(Either.right([]))
  })

  it("rejects SQL that does not parse, saying where", () => {
    expect(checkSuggestion(ORIGINAL, "SELECT id FROM")).toEqual(Either.left(expect.stringMatching(/suggested query does not parse.*line 1/)))
  })

  it("rejects the original with only white space changed", () => {
    expect(Either.isLeft(checkSuggestion(ORIGINAL, "SELECT *\n  FROM orders  "))).toBe(true)
  })

  it("warns when the tables read change", () => {
    const warnings = Either.getOrThrow(checkSuggestion(ORIGINAL, "SELECT o.id FROM orders o JOIN customers c ON o.cid = c.id"))
    expect(warnings).toEqual(["The suggestion reads tables the original does not: customers."])
    expect(Either.getOrThrow(checkSuggestion(parsed("SELECT * FROM a, b"), "SELECT * FROM a")))
      .toEqual(["The suggestion no longer reads: b."])
  })
})
