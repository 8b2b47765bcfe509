import { describe, expect, it } from "@effect/vitest"
import { Either, FastCheck as fc, ParseResult, Schema } from "effect"

import { fieldIssues } from "../../src/errors/ParseIssues.js"

const issuesOf = <A, I>(schema: Schema.Schema<A, I>, input: unknown) => {
  const result = ParseResult.decodeUnknownEither(schema, { errors: "all" })(input)
  if (Either.isRight(result)) throw new Error("expected a decoding failure")
  return fieldIssues(result.left)
}

describe("fieldIssues", () => {
  it("reports a missing field with the object that lacks it", () => {
    const schema = Schema.Struct({ name: Schema.String, role: Schema.String })
    expect(issuesOf(schema, { role: "admin" })).toEqual([
      { path: ["name"], issue: "missing", message: "is required", input: { role: "admin" }, expected: undefined }
    ])
  })

  it("addresses nested fields through objects and arrays, with the value received", () => {
    const schema = Schema.Struct({ items: Schema.Array(Schema.Struct({ n: Schema.Number })) })
    expect(issuesOf(schema, { items: [{ n: 1 }, { n: "x" }] })).toEqual([
      { path: ["items", 1, "n"], issue: "invalid_type", message: "Expected number, actual \"x\"", input: "x", expected: "number" }
    ])
  })

  it("reports every invalid field, not just the first", () => {
    const schema = Schema.Struct({ a: Schema.String, b: Schema.Boolean })
    expect(issuesOf(schema, { a: 1, b: 2 }).map((issue) => [issue.path, issue.expected])).toEqual([
      [["a"], "string"],
      [["b"], "boolean"]
    ])
  })

  it("makes one enum issue of a value outside a set of literals, optional or not", () => {
    const schema = Schema.Struct({ order: Schema.optional(Schema.Literal("asc", "desc")) })
    expect(issuesOf(schema, { order: "up" })).toEqual([
      { path: ["order"], issue: "invalid_enum", message: "Expected \"asc\" | \"desc\", actual \"up\"", input: "up", expected: undefined }
    ])
  })

  it("makes one issue of a value that matches no member of a union", () => {
    const issues = issuesOf(Schema.Struct({ v: Schema.NullOr(Schema.String) }), { v: 1 })
    expect(issues.map((issue) => [issue.issue, issue.message])).toEqual([["invalid_type", "Expected string | null, actual 1"]])
  })

  it("uses a check's own message, else describes what was expected", () => {
    const named = Schema.Struct({ name: Schema.String.pipe(Schema.minLength(3, { message: () => "too short" })) })
    expect(issuesOf(named, { name: "ab" })).toMatchObject([{ issue: "invalid_value", message: "too short", input: "ab" }])
    expect(issuesOf(Schema.Struct({ id: Schema.UUID }), { id: "42" })).toMatchObject([
      { issue: "invalid_value", message: "Expected a Universally Unique Identifier, actual \"42\"", input: "42" }
    ])
  })

  it("reports the type, not the check, when the value fails before the check", () => {
    const schema = Schema.Struct({ name: Schema.String.pipe(Schema.minLength(3, { message: () => "too short" })) })
    expect(issuesOf(schema, { name: 5 })).toMatchObject([{ issue: "invalid_type", expected: "string", input: 5 }])
  })

  it("reports a failed transformation as an invalid value", () => {
    expect(issuesOf(Schema.Struct({ n: Schema.NumberFromString }), { n: "abc" })).toMatchObject([
      { path: ["n"], issue: "invalid_value", input: "abc" }
    ])
  })

  it("reports fields a strict schema forbids", () => {
    const strict = Schema.Struct({ a: Schema.String }).annotations({ parseOptions: { onExcessProperty: "error" } })
    expect(issuesOf(strict, { a: "x", b: 1 })).toMatchObject([{ path: ["b"], issue: "unexpected", input: 1 }])
  })

  it.prop("describes every rejected input with at least one one-line issue", [fc.anything()], ([input]) => {
    const schema = Schema.Struct({
      name: Schema.String.pipe(Schema.minLength(1)),
      tags: Schema.optional(Schema.Array(Schema.Literal("a", "b"))),
      count: Schema.NullOr(Schema.Int)
    })
    const result = ParseResult.decodeUnknownEither(schema, { errors: "all" })(input)
    if (Either.isRight(result)) return
    const issues = fieldIssues(result.left)
    expect(issues.length).toBeGreaterThan(0)
    for (const issue of issues) expect(issue.message).not.toContain("\n")
  })
})
