/**
 * `trustedRow` (store-sql's reader of hot rows) builds instances of a plain `Schema.Class` as its
 * prototype with the columns assigned, without running the constructor per row, and falls back
 * to the constructor for a class whose constructor does more (defaults, properties of its own).
 */
import { CanonicalTime } from "@costline/core"
import { Columns } from "@costline/store-sql"
import { describe, expect, it } from "@effect/vitest"
import { DateTime, Equal, FastCheck, Schema } from "effect"

/** The class behind a proxy that counts `new`. */
const counting = <C extends abstract new(...args: any) => any>(Class: C) => {
  const counter = { constructed: 0 }
  const proxy = new Proxy(Class, {
    construct(target, args, newTarget) {
      counter.constructed++
      return Reflect.construct(target, args, newTarget)
    }
  })
  return { Class: proxy, counter }
}

class Plain extends Schema.Class<Plain>("Plain")({
  id: Schema.String,
  at: Schema.DateTimeUtc,
  flag: Schema.Boolean,
  note: Schema.NullOr(Schema.String)
}) {}

class WithDefault extends Schema.Class<WithDefault>("WithDefault")({
  id: Schema.String,
  level: Schema.optionalWith(Schema.Number, { default: () => 3 })
}) {}

class Tagged extends Schema.TaggedClass<Tagged>()("Tagged", { id: Schema.String }) {}

class OwnProperty extends Schema.Class<OwnProperty>("OwnProperty")({ id: Schema.String }) {
  readonly extra = "set by the constructor"
}

const rows = [
  { id: "a", at: "2026-01-02T03:04:05.678Z", flag: 1, note: null, unrelated: "x" },
  { id: "b", at: "2026-02-03T04:05:06.789Z", flag: 0, note: "n", unrelated: "y" }
]

describe("trustedRow", () => {
  it("builds a plain class's instances without its constructor, equal to the constructor's", () => {
    const { Class, counter } = counting(Plain)
    const read = Columns.trustedRow(Class, { at: Columns.TrustedColumn.dateTime, flag: Columns.TrustedColumn.boolean })
    const probed = counter.constructed
    const built = rows.map(read)
    expect(counter.constructed).toBe(probed)
    const expected = rows.map((row) =>
      new Plain({ id: row.id, at: DateTime.unsafeMake(row.at), flag: row.flag === 1, note: row.note })
    )
    built.forEach((value, index) => {
      expect(value).toBeInstanceOf(Plain)
      expect(Reflect.ownKeys(value)).toStrictEqual(["id", "at", "flag", "note"])
      expect(Equal.equals(value, expected[index])).toBe(true)
      expect(JSON.stringify(value)).toBe(JSON.stringify(expected[index]))
    })
  })

  it("reads columns of any name, through their readers, into the class's fields", () => {
    class Awkward extends Schema.Class<Awkward>("Awkward")({
      "a-b": Schema.String,
      "quote\"d\\n": Schema.Number,
      "line\nbreak": Schema.Boolean
    }) {}
    const read = Columns.trustedRow(Awkward, { "line\nbreak": Columns.TrustedColumn.boolean })
    const built = read({ "a-b": "x", "quote\"d\\n": 2, "line\nbreak": 1, other: "ignored" })
    expect(built).toBeInstanceOf(Awkward)
    expect(Reflect.ownKeys(built)).toStrictEqual(["a-b", "quote\"d\\n", "line\nbreak"])
    expect(Object.entries(built)).toStrictEqual([["a-b", "x"], ["quote\"d\\n", 2], ["line\nbreak", true]])
  })

  it("runs the constructor of a class with constructor defaults, which it then applies", () => {
    const { Class, counter } = counting(WithDefault)
    const read = Columns.trustedRow(Class, {})
    const probed = counter.constructed
    const built = read({ id: "a", level: undefined })
    expect(counter.constructed).toBe(probed + 1)
    expect(built).toBeInstanceOf(WithDefault)
    expect(built.level).toBe(3)
  })

  it("runs the constructor of a tagged class (its _tag is a default)", () => {
    const read = Columns.trustedRow(Tagged, {})
    const built = read({ id: "a" })
    expect(built).toBeInstanceOf(Tagged)
    expect(built._tag).toBe("Tagged")
    expect(Equal.equals(built, new Tagged({ id: "a" }))).toBe(true)
  })

  it("runs the constructor of a class that sets properties of its own", () => {
    const { Class, counter } = counting(OwnProperty)
    const read = Columns.trustedRow(Class, {})
    const probed = counter.constructed
    const built = read({ id: "a" })
    expect(counter.constructed).toBe(probed + 1)
    expect(built.extra).toBe("set by the constructor")
  })
})

describe("TrustedColumn.dateTime", () => {
  const read = (value: unknown) => {
    try {
      return { millis: Columns.TrustedColumn.dateTime(value).epochMillis }
    } catch (error) {
      return { error: String(error) }
    }
  }
  const made = (value: string | Date) => {
    try {
      return { millis: DateTime.unsafeMake(value).epochMillis }
    } catch (error) {
      return { error: String(error) }
    }
  }

  it("reads what isoText writes as DateTime.unsafeMake does, for every four-digit year", () =>
    FastCheck.assert(
      FastCheck.property(FastCheck.integer({ min: -62_167_219_200_000, max: 253_402_300_799_999 }), (millis) => {
        const text = Columns.isoText(new Date(millis))
        expect(Columns.isoTextMillis(text)).toBe(millis)
        expect(read(text)).toStrictEqual(made(text))
      }),
      { numRuns: 5000 }
    ))

  it("reads any other text, near misses included, and Dates, as DateTime.unsafeMake does", () => {
    const nearMiss = FastCheck.tuple(
      FastCheck.date({ min: new Date(0), max: new Date(253_402_300_799_999), noInvalidDate: true }),
      FastCheck.nat(23),
      FastCheck.constantFrom("0", "9", "3", "1", "-", ":", "T", "Z", " ", "+", "a", "")
    ).map(([date, index, replacement]) => {
      const text = date.toISOString()
      return text.slice(0, index) + replacement + text.slice(index + 1)
    })
    FastCheck.assert(
      FastCheck.property(FastCheck.oneof(nearMiss, FastCheck.string()), (text) => {
        expect(read(text)).toStrictEqual(made(text))
      }),
      { numRuns: 5000 }
    )
    for (const text of ["2026-02-29T00:00:00.000Z", "2024-02-29T00:00:00.000Z", "2026-04-31T00:00:00.000Z", "2026-01-01T24:00:00.000Z", "2026-01-01 10:00:00.000Z"]) {
      expect(read(text)).toStrictEqual(made(text))
    }
    const date = new Date("2026-11-26T08:00:00.000Z")
    expect(read(date)).toStrictEqual(made(date))
  })

  it("keeps the text it read only when that is the instant's canonical text (formatIso's)", () => {
    const nearMiss = FastCheck.tuple(
      FastCheck.integer({ min: -62_167_219_200_000, max: 253_402_300_799_999 }),
      FastCheck.nat(23),
      FastCheck.constantFrom("0", "9", "3", "1", "-", ":", "T", "Z", " ", "+", "a", "", "\u0660")
    ).map(([millis, index, replacement]) => {
      const text = new Date(millis).toISOString()
      return index === 0 && replacement === "" ? text : text.slice(0, index) + replacement + text.slice(index + 1)
    })
    let kept = 0
    FastCheck.assert(
      FastCheck.property(nearMiss, (text) => {
        let value: DateTime.Utc
        try {
          value = Columns.TrustedColumn.dateTime(text)
        } catch {
          return
        }
        const canonical = CanonicalTime.textOf(value)
        if (canonical !== undefined) {
          kept++
          expect(canonical).toBe(text)
          expect(canonical).toBe(DateTime.formatIso(value))
        }
      }),
      { numRuns: 5000 }
    )
    expect(kept).toBeGreaterThan(100)
    expect(CanonicalTime.textOf(Columns.TrustedColumn.dateTime("2026-11-26T08:00:00.000Z"))).toBe("2026-11-26T08:00:00.000Z")
    expect(CanonicalTime.textOf(Columns.TrustedColumn.dateTime("0000-01-01T00:00:00.000Z"))).toBe("0000-01-01T00:00:00.000Z")
    for (const text of ["2026-11-26T08:00:00Z", "2026-11-26T08:00:00.000+00:00", "2026-11-26 08:00:00.000Z", "2026-02-29T00:00:00.000Z"]) {
      expect(CanonicalTime.textOf(Columns.TrustedColumn.dateTime(text))).toBeUndefined()
    }
    // A Date (Postgres) has no text of its own to keep.
    expect(CanonicalTime.textOf(Columns.TrustedColumn.dateTime(new Date(0)))).toBeUndefined()
  })
})
