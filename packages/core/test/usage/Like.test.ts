import { describe, expect, it } from "@effect/vitest"
import { FastCheck as fc } from "effect"
import { MAX_FILTER_TEXT } from "../../src/usage/FilterExpression.js"
import { compileLike, patternProblem, type Steps } from "../../src/usage/internal/Like.js"

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

  /** The steps one match takes (see Like: text × ⌈longest segment / 32⌉ + pattern at most). */
  const stepsOf = (pattern: string, text: string) => {
    const steps: Steps = { count: 0 }
    const matched = compileLike(pattern, steps)(text)
    return { matched, steps: steps.count }
  }
  const bound = (pattern: string, text: string) => {
    const longest = Math.max(...pattern.split("%").map((segment) => Array.from(segment).length))
    return text.length * Math.ceil(longest / 32) + pattern.length
  }

  // Each is O(text × pattern) = 10^8 steps for a scan that retries from its last `%`, and
  // exponential for a RegExp.
  it.each([
    ["%" + "a".repeat(MAX_FILTER_TEXT - 3) + "b%", "a".repeat(100_000)],
    ["%" + "a".repeat(MAX_FILTER_TEXT - 2) + "b", "a".repeat(100_000)],
    ["%" + "a_".repeat(MAX_FILTER_TEXT / 2 - 2) + "b%", "a".repeat(100_000)],
    ["%a".repeat(MAX_FILTER_TEXT / 2 - 1) + "%b", "a".repeat(100_000)],
    ["%" + "ab".repeat(MAX_FILTER_TEXT / 2 - 1) + "%", "ab".repeat(50_000) + "x"]
  ])("a %#: 1,000-character pathological pattern against 100k characters takes linear steps", (pattern, text) => {
    const { steps } = stepsOf(pattern, text)
    expect(steps).toBeGreaterThan(0)
    expect(steps).toBeLessThanOrEqual(bound(pattern, text))
    // At most 32 steps per text character, whatever the pattern (values are capped at 1,000).
    expect(steps).toBeLessThanOrEqual(32 * text.length + pattern.length)
    // Twice the text, at most twice the steps (plus the pattern's own).
    expect(stepsOf(pattern, text + text).steps).toBeLessThanOrEqual(2 * steps + pattern.length)
  })

  it.prop(
    "never takes more than text × ⌈longest segment / 32⌉ + pattern steps",
    {
      pattern: fc.array(fc.constantFrom("a", "b", "_", "%", "aaaaaaaaaaaaaaaaaaaa"), { maxLength: 60 }).map((parts) => parts.join("")),
      text: fc.string({ unit: fc.constantFrom("a", "b"), maxLength: 400 })
    },
    ({ pattern, text }) => {
      expect(stepsOf(pattern, text).steps).toBeLessThanOrEqual(bound(pattern, text))
    },
    { fastCheck: { numRuns: 500 } }
  )

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
