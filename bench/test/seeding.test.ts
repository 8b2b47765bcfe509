/** Postgres seeding: rows go over as one array literal per column, which must be what Postgres reads. */
import fc from "fast-check"
import utils from "pg/lib/utils.js"
import { describe, expect, it } from "vitest"
import { arrayLiteral, columnArrays, unnestInsert } from "../lib/BulkInsert.js"

describe("array literals", () => {
  it("quote every value as text, escape quotes and backslashes, and write NULL bare", () => {
    expect(arrayLiteral(["a", "say \"hi\"", "back\\slash", null, undefined, 1.5, true])).toBe(
      "{\"a\",\"say \\\"hi\\\"\",\"back\\\\slash\",NULL,NULL,\"1.5\",\"true\"}"
    )
    expect(arrayLiteral([])).toBe("{}")
  })

  it("are what node-postgres writes for the same values", () => {
    const value = fc.oneof(fc.string({ unit: "grapheme" }), fc.constant(null), fc.double({ noNaN: true }), fc.boolean())
    fc.assert(fc.property(fc.array(value), (values) => arrayLiteral(values) === utils.prepareValue(values)))
  })

  it("are taken column by column, a missing value as NULL", () => {
    expect(columnArrays([{ a: "x", b: 1 }, { a: null }], ["a", "b"])).toEqual(["{\"x\",NULL}", "{\"1\",NULL}"])
  })
})

describe("unnest inserts", () => {
  it("cast each parameter to an array of its column's type", () => {
    const types = new Map([["id", "text"], ["at", "timestamp with time zone"], ["values", "jsonb"]])
    expect(unnestInsert("t", ["id", "at", "values"], types)).toBe(
      "INSERT INTO \"t\" (\"id\", \"at\", \"values\") SELECT * FROM unnest($1::text[], $2::timestamp with time zone[], $3::jsonb[])"
    )
    expect(() => unnestInsert("t", ["nope"], types)).toThrow("t has no column nope")
  })
})
