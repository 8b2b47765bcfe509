import { describe, expect, it } from "@effect/vitest"
import { Either, FastCheck as fc, Schema } from "effect"

import { integerParam, listParam, oneOfList, parseDateTime } from "../../src/api/QueryParams.js"

describe("parseDateTime", () => {
  it.each([
    ["2024-05-01T12:00Z", "2024-05-01T12:00:00.000Z"],
    ["2024-05-01T12:00:30Z", "2024-05-01T12:00:30.000Z"],
    ["2024-05-01t12:00:30.25z", "2024-05-01T12:00:30.250Z"],
    ["2024-05-01T12:00:00+02:00", "2024-05-01T10:00:00.000Z"],
    ["2024-05-01T12:00:00-05:30", "2024-05-01T17:30:00.000Z"],
    ["2024-02-29T23:59:59Z", "2024-02-29T23:59:59.000Z"],
    // No offset is UTC, never the server's local time.
    ["2024-05-01T12:00:00", "2024-05-01T12:00:00.000Z"]
  ])("reads %s", (text, iso) => {
    expect(parseDateTime(text)?.toISOString()).toBe(iso)
  })

  it.each([
    "2024-05-01",
    "2024-05-01 12:00:00Z",
    "2023-02-29T00:00:00Z",
    "2024-04-31T00:00:00Z",
    "2024-13-01T00:00:00Z",
    "2024-05-01T24:00:00Z",
    "2024-05-01T12:60:00Z",
    "2024-05-01T12:00:00+24:00",
    "1714564800",
    "yesterday",
    ""
  ])("rejects %s", (text) => {
    expect(parseDateTime(text)).toBeUndefined()
  })

  it.prop("reads back every date it writes", [fc.date({ min: new Date("0001-01-01"), max: new Date("9999-12-31"), noInvalidDate: true })], ([date]) => {
    expect(parseDateTime(date.toISOString())?.getTime()).toBe(date.getTime())
  })
})

describe("listParam", () => {
  const decode = Schema.decodeUnknownEither(oneOfList(Schema.Literal("a", "b", "c")))

  it("splits on commas, trims, and joins repeated parameters", () => {
    expect(decode(["a, b", "c"])).toEqual(Either.right(["a", "b", "c"]))
  })

  it("names the first invalid item and the allowed values", () => {
    const result = decode(["a,z"])
    expect(Either.isLeft(result) && result.left.message).toContain("'z' is not one of: a, b, c")
  })

  it("validates items with any string schema", () => {
    const uuids = Schema.decodeUnknownEither(listParam(Schema.UUID, "a UUID"))
    expect(Either.isRight(uuids(["6f1c0d2e-5d0a-4b5e-9a59-2f1e8f0c1a2b"]))).toBe(true)
    expect(Either.isLeft(uuids(["6f1c0d2e-5d0a-4b5e-9a59-2f1e8f0c1a2b,42"]))).toBe(true)
  })
})

describe("integerParam", () => {
  const decode = Schema.decodeUnknownEither(integerParam(1, 500))

  it.each([["1", 1], ["500", 500], ["007", 7], ["+5", 5]])("reads %s", (text, value) => {
    expect(decode(text)).toEqual(Either.right(value))
  })

  it.each(["0", "501", "-1", "1.5", "1e2", "0x10", " 5", "", "ten"])("rejects %s", (text) => {
    const result = decode(text)
    expect(Either.isLeft(result) && result.left.message).toContain("must be an integer from 1 to 500")
  })
})
