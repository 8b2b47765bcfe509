import { describe, expect, it } from "@effect/vitest"
import { Either, FastCheck as fc, Schema } from "effect"
import { isStorableJson, isStorableText, StorableString } from "../../src/shared/StorableText.js"

/** A string with `bad` spliced in at a random place. */
const withInside = (bad: string) =>
  fc.tuple(fc.string(), fc.string()).map(([before, after]) => `${before}${bad}${after}`)

describe("isStorableText", () => {
  it.prop("accepts any text without NUL or unpaired surrogates, emoji included", [fc.string({ unit: "grapheme" })], ([text]) => {
    fc.pre(!text.includes("\u0000"))
    expect(isStorableText(text)).toBe(true)
  })

  it.prop("refuses a NUL anywhere", [withInside("\u0000")], ([text]) => {
    expect(isStorableText(text)).toBe(false)
  })

  it.each([["a lone high surrogate", "x\ud83dy"], ["a lone low surrogate", "\ude00"], ["swapped halves", "\ude00\ud83d"]])(
    "refuses %s",
    (_, text) => expect(isStorableText(text)).toBe(false)
  )

  it("keeps a surrogate pair", () => expect(isStorableText("\ud83d\ude00")).toBe(true))

  it("StorableString reports the rule as its message", () => {
    const decoded = Schema.decodeUnknownEither(StorableString)("a\u0000b")
    expect(Either.isLeft(decoded) && decoded.left.message).toContain("must not contain NUL characters or unpaired surrogates")
  })
})

describe("isStorableJson", () => {
  it.prop("accepts what JSON can carry", [fc.jsonValue()], ([value]) => {
    expect(isStorableJson(value)).toBe(true)
  })

  it.each([
    ["a NUL in a nested string", { a: [{ b: "x\u0000" }] }],
    ["a NUL in a key", { "k\u0000": 1 }],
    ["an unpaired surrogate", ["\ud800"]],
    ["NaN", { n: Number.NaN }],
    ["Infinity", [Number.POSITIVE_INFINITY]],
    ["undefined", { u: undefined }],
    ["a bigint", 1n],
    ["a Date", new Date(0)],
    ["a function", () => 1]
  ])("refuses %s", (_, value) => expect(isStorableJson(value)).toBe(false))

  it("accepts objects without a prototype", () => expect(isStorableJson(Object.assign(Object.create(null), { a: 1 }))).toBe(true))
})
