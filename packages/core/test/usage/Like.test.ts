import { describe, expect, it } from "@effect/vitest"
import { FastCheck as fc } from "effect"
import { compileLike, patternProblem } from "../../src/usage/Like.js"

const like = (pattern: string, text: string) => compileLike(pattern)(text)

/** A plain RegExp translation: fine as a reference on short, harmless inputs. */
const reference = (pattern: string, text: string) => {
  const literal = (c: string) => c.toLowerCase().replace(/[\\^$.*+?()[\]{}|/]/g, "\\$&")
  const chars = Array.from(pattern)
  let source = ""
  for (let i = 0; i < chars.length; i++) {
    const c = chars[i]!
    if (c === "\\") source += literal(chars[++i]!)
    else source += c === "%" ? ".*" : c === "_" ? "." : literal(c)
  }
  return new RegExp(`^${source}$`, "su").test(text.toLowerCase())
}

describe("ilike patterns", () => {
  it.each([
    ["%", "", true],
    ["%", "anything", true],
    ["_", "", false],
    ["_", "é", true],
    ["_", "😀", true],
    ["__", "😀", false],
    ["etl%", "ETL_WH", true],
    ["%_wh", "ETL_WH", true],
    ["%_wh", "_WH", true],
    ["%_wh", "WH", false],
    ["e_l", "ETL", true],
    ["e_l", "EL", false],
    ["etl", "etl_wh", false],
    ["%wh", "wh_x", false],
    ["a%b%c", "aXXbYYc", true],
    ["a%b%c", "aXXcYYb", false],
    ["100\\%", "100%", true],
    ["100\\%", "1000", false],
    ["a\\_b", "a_b", true],
    ["a\\_b", "axb", false],
    ["a\\\\b", "a\\b", true],
    ["ÄRGER%", "ärgerlich", true]
  ])("%j against %j is %s", (pattern, text, expected) => {
    expect(like(pattern, text)).toBe(expected)
  })

  it("stays fast on patterns that make a backtracking RegExp explode", () => {
    const pattern = "%a".repeat(30) + "%b"
    expect(like(pattern, "a".repeat(5000))).toBe(false)
  })

  it.each([
    ["plain", undefined],
    ["\\%\\_\\\\", undefined],
    ["trailing\\", "a backslash must be followed by %, _ or \\"],
    ["\\n", "a backslash must be followed by %, _ or \\"]
  ])("pattern %j: problem %j", (pattern, problem) => {
    expect(patternProblem(pattern)).toBe(problem)
  })

  const alphabet = fc.constantFrom("a", "B", "%", "_", "\\%", "\\_", "é")
  it.prop(
    "matches like a RegExp translation on small inputs",
    {
      pattern: fc.array(alphabet, { maxLength: 6 }).map((parts) => parts.join("")),
      text: fc.string({ unit: fc.constantFrom("a", "A", "b", "%", "_", "É", "é"), maxLength: 8 })
    },
    ({ pattern, text }) => {
      expect(like(pattern, text)).toBe(reference(pattern, text))
    },
    { fastCheck: { numRuns: 2000 } }
  )
})
