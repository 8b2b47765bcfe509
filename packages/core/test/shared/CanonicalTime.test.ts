/**
 * `CanonicalTime.make` builds a `DateTime.Utc` that Effect and structural equality cannot tell
 * from `DateTime.unsafeMake`'s, and keeps the text it was given where only `textOf` sees it.
 */
import { CanonicalTime } from "@costline/core"
import { describe, expect, it } from "@effect/vitest"
import { DateTime, Equal, FastCheck, Hash } from "effect"

const instants = FastCheck.integer({ min: -8_639_000_000_000_000, max: 8_639_000_000_000_000 })

describe("CanonicalTime", () => {
  it("makes the same DateTime.Utc as unsafeMake, with or without text", () =>
    FastCheck.assert(
      FastCheck.property(instants, FastCheck.boolean(), (millis, withText) => {
        const effects = DateTime.unsafeMake(millis)
        const text = withText ? DateTime.formatIso(effects) : undefined
        const ours = CanonicalTime.make(millis, text)
        expect(DateTime.isDateTime(ours)).toBe(true)
        expect(DateTime.isUtc(ours)).toBe(true)
        expect(ours.epochMillis).toBe(millis)
        expect(Reflect.ownKeys(ours)).toStrictEqual(["epochMillis"])
        expect(Equal.equals(ours, effects)).toBe(true)
        expect(Equal.equals(effects, ours)).toBe(true)
        expect(Hash.hash(ours)).toBe(Hash.hash(effects))
        expect(ours).toEqual(effects)
        expect(JSON.stringify(ours)).toBe(JSON.stringify(effects))
        expect(String(ours)).toBe(String(effects))
        expect(DateTime.formatIso(ours)).toBe(DateTime.formatIso(effects))
        expect(CanonicalTime.textOf(ours)).toBe(text)
      }),
      { numRuns: 2000 }
    ))

  it("caches calendar parts as Effect does: a non-enumerable own property", () => {
    const ours = CanonicalTime.make(1_764_144_000_123, "2025-11-26T08:00:00.123Z")
    const effects = DateTime.unsafeMake(1_764_144_000_123)
    expect(DateTime.toPartsUtc(ours)).toStrictEqual(DateTime.toPartsUtc(effects))
    expect(DateTime.toPartsUtc(ours)).toBe(DateTime.toPartsUtc(ours))
    expect(Object.keys(ours)).toStrictEqual(["epochMillis"])
    expect(ours).toEqual(effects)
    expect(DateTime.formatIsoZoned(DateTime.setZone(ours, DateTime.zoneMakeOffset(3_600_000)))).toBe(
      DateTime.formatIsoZoned(DateTime.setZone(effects, DateTime.zoneMakeOffset(3_600_000)))
    )
    expect(DateTime.add(ours, { hours: 1 }).epochMillis).toBe(DateTime.add(effects, { hours: 1 }).epochMillis)
  })

  it("has no text for any other DateTime", () => {
    expect(CanonicalTime.textOf(DateTime.unsafeMake(0))).toBeUndefined()
    expect(CanonicalTime.textOf(CanonicalTime.make(0))).toBeUndefined()
    expect(CanonicalTime.textOf(DateTime.unsafeMakeZoned(0, { timeZone: "Europe/Paris" }))).toBeUndefined()
    // An instant derived from one with text is a new one, without it.
    expect(CanonicalTime.textOf(DateTime.add(CanonicalTime.make(0, "1970-01-01T00:00:00.000Z"), { millis: 1 }))).toBeUndefined()
  })
})
