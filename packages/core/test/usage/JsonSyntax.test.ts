import { describe, expect, it } from "@effect/vitest"
import { FastCheck as fc } from "effect"
import { locateSyntaxError } from "../../src/usage/internal/JsonSyntax.js"

const parses = (text: string) => {
  try {
    JSON.parse(text)
    return true
  } catch {
    return false
  }
}

/** Valid JSON with one character deleted or inserted: mostly broken, sometimes not. */
const nearlyJson = fc.tuple(fc.json(), fc.nat(), fc.boolean(), fc.constantFrom(..."{}[]\",:0-.eE+ tfnu\\\u0001x")).map(
  ([text, at, remove, c]) => {
    const i = at % (text.length + 1)
    return remove ? text.slice(0, i) + text.slice(i + 1) : text.slice(0, i) + c + text.slice(i)
  }
)
const anyText = fc.oneof(nearlyJson, fc.json(), fc.string(), fc.string({ unit: "binary" }))

describe("locateSyntaxError", () => {
  it.each([
    ["{\"a\":1,}", 7, "}"],
    ["[1 2]", 3, "2"],
    ["{'a': 1}", 1, "'"],
    ["[tru]", 4, "]"],
    ["\"abc", 4, undefined],
    ["\"a\\x\"", 3, "x"],
    ["\"\\u12G4\"", 5, "G"],
    ["1.", 2, undefined],
    ["-", 1, undefined],
    ["01", 1, "1"],
    ["[1]x", 3, "x"],
    ["", 0, undefined],
    ["{\"a\" 1}", 5, "1"]
  ])("%j breaks at %i", (text, offset, found) => {
    expect(locateSyntaxError(text)).toMatchObject({ offset, found })
  })

  it("counts lines and columns from 1", () => {
    expect(locateSyntaxError("{\n  \"a\": [1,\n  ]\n}")).toEqual({ offset: 15, line: 3, column: 3, found: "]" })
  })

  it("survives nesting far deeper than any recursion could", () => {
    expect(locateSyntaxError("[".repeat(200_000))).toMatchObject({ offset: 200_000 })
  })

  it.prop("finds an error exactly when JSON.parse fails", { text: anyText }, ({ text }) => {
    expect(locateSyntaxError(text) === undefined).toBe(parses(text))
  }, { fastCheck: { numRuns: 2000 } })

  it.prop("agrees with JSON.parse wherever its message states a position", { text: anyText }, ({ text }) => {
    try {
      JSON.parse(text)
    } catch (error) {
      const stated = /position (\d+)/.exec((error as Error).message)
      if (stated !== null) expect(locateSyntaxError(text)?.offset).toBe(Number(stated[1]))
    }
  }, { fastCheck: { numRuns: 2000 } })
})
