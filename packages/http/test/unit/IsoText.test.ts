/** `IsoText.formatIso` writes exactly `DateTime.formatIso`'s text, for every representable instant. */
import { describe, expect, it } from "@effect/vitest"
import { DateTime, FastCheck } from "effect"
import * as IsoText from "../../src/api/IsoText.js"

const same = (millis: number) => {
  const value = DateTime.unsafeMake(millis) as DateTime.Utc
  expect(IsoText.formatIso(value)).toBe(DateTime.formatIso(value))
}

describe("IsoText.formatIso", () => {
  it("equals DateTime.formatIso for arbitrary instants (four-digit years and beyond)", () => {
    FastCheck.assert(FastCheck.property(FastCheck.integer({ min: 0, max: 253_402_300_799_999 }), same), { numRuns: 5000 })
    FastCheck.assert(FastCheck.property(FastCheck.date({ noInvalidDate: true }), (date) => same(date.getTime())), { numRuns: 2000 })
  })

  it("equals it at the edges: the epoch, leap days, the last four-digit instant, six-digit and negative years", () => {
    for (
      const text of [
        "1970-01-01T00:00:00.000Z",
        "2000-02-29T23:59:59.999Z",
        "2024-02-29T12:00:00.001Z",
        "2100-03-01T00:00:00.010Z",
        "9999-12-31T23:59:59.999Z",
        "1969-12-31T23:59:59.999Z"
      ]
    ) same(Date.parse(text))
    same(253_402_300_800_000)
    same(-62_198_755_200_000)
  })
})
