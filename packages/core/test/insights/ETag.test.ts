import { describe, expect, it } from "@effect/vitest"
import { Either, FastCheck as fc } from "effect"
import { isDeepStrictEqual } from "node:util"
import * as ETag from "../../src/insights/ETag.js"
import { bookkeeping, EDITABLE_FIELDS, editableState } from "./arbitraries.js"

/** The same value with the keys of every object in reverse order. */
const reversed = (value: unknown): unknown => {
  if (Array.isArray(value)) return value.map(reversed)
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).reverse().map(([k, v]) => [k, reversed(v)]))
  }
  return value
}

/** Equality as JSON sees it (key order ignored, -0 and 0 alike): the oracle for "same state". */
const sameJson = (a: unknown, b: unknown) => isDeepStrictEqual(JSON.parse(JSON.stringify(a)), JSON.parse(JSON.stringify(b)))

const pick = (source: Record<string, unknown>, keys: ReadonlyArray<string>) =>
  Object.fromEntries(keys.map((k) => [k, source[k]]))

// etagc = %x21 / %x23-7E / obs-text (%x80-FF)
const etagc = fc.oneof(
  fc.constant("!"),
  fc.integer({ min: 0x23, max: 0x7e }).map((c) => String.fromCharCode(c)),
  fc.integer({ min: 0x80, max: 0xff }).map((c) => String.fromCharCode(c))
)
const entityTag = fc.record({
  weak: fc.boolean(),
  opaque: fc.string({ unit: etagc, maxLength: 12 }).map((s) => `"${s}"`)
})
const condition: fc.Arbitrary<ETag.Condition> = fc.oneof(
  fc.constant({ _tag: "Any" as const }),
  fc.tuple(entityTag, fc.array(entityTag, { maxLength: 4 })).map(([first, rest]) => ({
    _tag: "Tags" as const,
    tags: [first, ...rest] as const
  }))
)

const parseIfMatch = (value: string) => ETag.parse("if-match", value)
const tags = (...list: Array<[boolean, string]>): ETag.Condition => ({
  _tag: "Tags",
  tags: list.map(([weak, opaque]) => ({ weak, opaque })) as [ETag.EntityTag, ...Array<ETag.EntityTag>]
})

describe("ETag.canonicalJson", () => {
  it.prop("does not depend on key order", [fc.jsonValue()], ([value]) => {
    expect(ETag.canonicalJson(reversed(value))).toBe(ETag.canonicalJson(value))
  })

  it.prop("is JSON of the same value", [fc.jsonValue()], ([value]) => {
    expect(sameJson(JSON.parse(ETag.canonicalJson(value)), value)).toBe(true)
  })

  it("sorts keys at every depth and leaves undefined members out", () => {
    expect(ETag.canonicalJson({ b: [{ d: 1, c: undefined, a: null }], a: "x" })).toBe('{"a":"x","b":[{"a":null,"d":1}]}')
  })
})

describe("ETag.forInsight", () => {
  it.prop("is a quoted strong entity tag", [editableState], ([state]) => {
    expect(ETag.forInsight(state)).toMatch(/^"[A-Za-z0-9_-]{22}"$/)
  })

  it.prop(
    "changes exactly when the editable state changes",
    [editableState, editableState, fc.subarray([...EDITABLE_FIELDS])],
    ([a, other, replaced]) => {
      // b is a with some fields taken from another state: sometimes equal to a, mostly not.
      const b = { ...a, ...pick(other, replaced) } as typeof a
      expect(ETag.forInsight(a) === ETag.forInsight(b)).toBe(sameJson(a, b))
    },
    { fastCheck: { numRuns: 500 } }
  )

  it.prop(
    "ignores views, timestamps, id and type",
    [editableState, bookkeeping, bookkeeping],
    ([state, first, second]) => {
      expect(ETag.forInsight({ ...state, ...first })).toBe(ETag.forInsight({ ...state, ...second }))
    }
  )

  it.prop("does not depend on key order, also inside details", [editableState], ([state]) => {
    expect(ETag.forInsight(reversed(state) as typeof state)).toBe(ETag.forInsight(state))
  })
})

describe("ETag.parse", () => {
  it.prop("parses what format wrote", [condition], ([c]) => {
    expect(parseIfMatch(ETag.format(c))).toStrictEqual(Either.right(c))
  })

  it.each([
    ["*", { _tag: "Any" }],
    [" \t* ", { _tag: "Any" }],
    ['"a"', tags([false, '"a"'])],
    ['W/"a"', tags([true, '"a"'])],
    ['  "a" ,W/"b",\t"c"  ', tags([false, '"a"'], [true, '"b"'], [false, '"c"'])],
    ['"a",,"b",', tags([false, '"a"'], [false, '"b"'])],
    ['"a,b"', tags([false, '"a,b"'])],
    ['""', tags([false, '""'])]
  ])("accepts %j", (header, expected) => {
    expect(parseIfMatch(header)).toStrictEqual(Either.right(expected))
  })

  it.each([
    "",
    " , ",
    "abc",
    '"abc',
    'W/abc',
    'w/"abc"',
    '"a" "b"',
    '"a"b',
    '*, "a"',
    '"a", *',
    '"a"b"',
    '"\u0100"',
    '"a\u0000"'
  ])("rejects %j with a validation error on the header", (header) => {
    const result = ETag.parse("if-none-match", header)
    expect(Either.isLeft(result)).toBe(true)
    if (Either.isLeft(result)) {
      expect(result.left._tag).toBe("ValidationFailed")
      expect(result.left.details.map((d) => d.field)).toStrictEqual(["header.if-none-match"])
    }
  })

  it.prop(
    "never throws, whatever the header",
    [fc.oneof(fc.string({ unit: "binary" }), fc.string({ unit: fc.constantFrom('"', "W", "/", ",", " ", "a", "*", "\t") }))],
    ([header]) => {
      expect(Either.isEither(parseIfMatch(header))).toBe(true)
    }
  )
})

describe("ETag.matches (If-Match, strong comparison)", () => {
  const current = ETag.compute({ status: "open" })

  it("matches the current tag, alone or in a list, and *", () => {
    expect(ETag.matches(tags([false, current]), current)).toBe(true)
    expect(ETag.matches(tags([false, '"other"'], [false, current]), current)).toBe(true)
    expect(ETag.matches({ _tag: "Any" }, current)).toBe(true)
  })

  it("does not match another tag", () => {
    expect(ETag.matches(tags([false, ETag.compute({ status: "resolved" })]), current)).toBe(false)
  })

  it.prop("never matches a weak tag, even of the current state", [fc.array(entityTag, { maxLength: 3 })], ([others]) => {
    const weakOnly = [{ weak: true, opaque: current }, ...others.map((t) => ({ ...t, weak: true }))] as const
    expect(ETag.matches({ _tag: "Tags", tags: weakOnly }, current)).toBe(false)
  })

  it.prop("matches the tag it computed, as a client sends it back", [editableState], ([state]) => {
    const etag = ETag.forInsight(state)
    expect(Either.map(parseIfMatch(etag), (c) => ETag.matches(c, etag))).toStrictEqual(Either.right(true))
  })
})

describe("ETag.matchesWeakly (If-None-Match)", () => {
  const current = ETag.compute({ status: "open" })

  it("treats a weak tag as naming the same state", () => {
    expect(ETag.matchesWeakly(tags([true, current]), current)).toBe(true)
    expect(ETag.matchesWeakly(tags([false, current]), current)).toBe(true)
    expect(ETag.matchesWeakly({ _tag: "Any" }, current)).toBe(true)
    expect(ETag.matchesWeakly(tags([true, '"other"']), current)).toBe(false)
  })
})
