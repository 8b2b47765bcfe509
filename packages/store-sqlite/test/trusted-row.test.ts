/**
 * `trustedRow` (store-sql's reader of hot rows) builds instances of a plain `Schema.Class` as its
 * prototype with the columns assigned, without running the constructor per row, and falls back
 * to the constructor for a class whose constructor does more (defaults, properties of its own).
 */
import { Columns } from "@costline/store-sql"
import { describe, expect, it } from "@effect/vitest"
import { DateTime, Equal, Schema } from "effect"

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
