import { describe, expect, it } from "@effect/vitest"
import { DateTime, Effect, FastCheck as fc, TestClock } from "effect"
import * as ViewDay from "../../src/insights/ViewDay.js"

const DAY = 86_400_000
/** Instants from year 0000 to 9999, where Date's ISO form is plain YYYY-MM-DD. */
const millis = fc.integer({ min: Date.parse("0000-01-01T00:00:00Z"), max: Date.parse("9999-12-31T23:59:59.999Z") })
const at = (ms: number) => DateTime.unsafeMake(ms)

describe("ViewDay", () => {
  it.effect("a view at 23:59:59.999 and one at 00:00:00.000 fall on different days", () =>
    Effect.gen(function*() {
      yield* TestClock.setTime(Date.UTC(2024, 1, 29, 23, 59, 59, 999))
      const before = yield* DateTime.now
      yield* TestClock.adjust("1 millis")
      const after = yield* DateTime.now
      expect(ViewDay.dayKey(before)).toBe("2024-02-29")
      expect(ViewDay.dayKey(after)).toBe("2024-03-01")
    }))

  it.effect("views from the first to the last millisecond of a day share one key", () =>
    Effect.gen(function*() {
      yield* TestClock.setTime(Date.UTC(2024, 11, 31))
      const first = yield* DateTime.now
      yield* TestClock.adjust(DAY - 1)
      const last = yield* DateTime.now
      expect(ViewDay.dayKey(first)).toBe("2024-12-31")
      expect(ViewDay.dayKey(last)).toBe("2024-12-31")
    }))

  it("uses the UTC day, not the day of the DateTime's zone", () => {
    // 23:30 UTC on 1 January is already 2 January at +14:00.
    const zoned = DateTime.setZone(at(Date.UTC(2024, 0, 1, 23, 30)), DateTime.zoneMakeOffset(14 * 3_600_000))
    expect(DateTime.formatIsoZoned(zoned).slice(0, 10)).toBe("2024-01-02")
    expect(ViewDay.dayKey(zoned)).toBe("2024-01-01")
  })

  it.prop("is the ISO calendar date in UTC", [millis], ([ms]) => {
    expect(ViewDay.dayKey(at(ms))).toBe(new Date(ms).toISOString().slice(0, 10))
  })

  it.prop("changes exactly at UTC midnight", [millis], ([ms]) => {
    const midnight = Math.floor(ms / DAY) * DAY
    expect(ViewDay.dayKey(at(midnight))).toBe(ViewDay.dayKey(at(ms)))
    expect(ViewDay.dayKey(at(midnight + DAY - 1))).toBe(ViewDay.dayKey(at(ms)))
    expect(ViewDay.dayKey(at(midnight - 1))).not.toBe(ViewDay.dayKey(at(ms)))
  })

  it("keeps keys distinct outside the years 0000-9999", () => {
    expect(ViewDay.dayKey(at(Date.UTC(10000, 0, 1)))).toBe("10000-01-01")
    expect(ViewDay.dayKey(at(Date.UTC(-1, 0, 1)))).toBe("-0001-01-01")
  })
})
