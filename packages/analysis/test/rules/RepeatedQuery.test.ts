import { describe, expect, it } from "@effect/vitest"
import { repeatedQuery } from "../../src/rules/RepeatedQuery.js"
import { runRule } from "../helpers.js"

const SQL = "SELECT a FROM t WHERE id = 42"

describe("repeated_query", () => {
  it("flags a query seen often, with savings for all runs but one", () => {
    const [finding] = runRule(repeatedQuery, SQL, { occurrences: 25, statistics: { credits_used: 0.5 } })
    expect(finding?.severity).toBe("low")
    expect(finding?.evidence).toEqual({ occurrences: 25 })
    expect(finding?.potential_savings).toBe(12)
  })

  it("is medium for a hundred runs or more", () => {
    expect(runRule(repeatedQuery, SQL, { occurrences: 150 })[0]?.severity).toBe("medium")
  })

  it("ignores rare queries and a missing history", () => {
    expect(runRule(repeatedQuery, SQL, { occurrences: 3 })).toEqual([])
    expect(runRule(repeatedQuery, SQL)).toEqual([])
  })
})
