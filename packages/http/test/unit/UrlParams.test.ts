import { describe, expect, it } from "@effect/vitest"
import { Schema } from "effect"
import { normalizeQuery } from "../../src/routing/UrlParams.js"

describe("normalizeQuery", () => {
  const params = Schema.Struct({
    one: Schema.optional(Schema.String),
    order: Schema.optional(Schema.Literal("asc", "desc")),
    many: Schema.optional(Schema.Array(Schema.String)),
    count: Schema.optional(Schema.NumberFromString)
  })

  it("wraps a single value in an array only where the schema takes several", () => {
    expect(normalizeQuery({ one: "a", order: "asc", many: "x", count: "3" }, params.ast)).toEqual({
      one: "a",
      order: "asc",
      many: ["x"],
      count: "3"
    })
  })

  it("keeps repeated values as they came, and unknown parameters as arrays", () => {
    expect(normalizeQuery({ one: ["a", "b"], many: ["x", "y"], other: "z" }, params.ast)).toEqual({
      one: ["a", "b"],
      many: ["x", "y"],
      other: ["z"]
    })
  })
})
