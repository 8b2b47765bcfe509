import { describe, expect, it } from "@effect/vitest"
import { Either } from "effect"
import * as ETag from "../../src/shared/ETag.js"
import * as Precondition from "../../src/shared/Precondition.js"

const condition = (header: string) => Precondition.ifMatch(Either.getOrThrow(ETag.parse("if-match", header)))
const current = ETag.compute({ name: "Data" })

describe("check", () => {
  it.each([
    ["no If-Match", Precondition.none, true],
    ["the current ETag", condition(current), true],
    ["*", condition("*"), true],
    ["a list holding the current ETag", condition(`"old", ${current}`), true],
    ["another ETag", condition("\"old\""), false],
    ["the current ETag, weak", condition(`W/${current}`), false]
  ])("%s → passes: %s", (_, precondition, passes) => {
    const result = Precondition.check(precondition, current, "the team")
    expect(Either.isRight(result)).toBe(passes)
    if (Either.isLeft(result)) {
      expect(result.left).toMatchObject({ _tag: "PreconditionFailed", message: "the team has changed since it was read (If-Match does not match)" })
    }
  })
})

describe("parsing the header at the edge", () => {
  it("required: absent is PreconditionRequired, malformed a validation failure on the header", () => {
    expect(Precondition.required(undefined, "the insight")).toEqual(Either.left(expect.objectContaining({
      _tag: "PreconditionRequired",
      message: "If-Match is required: send the ETag of your last read of the insight"
    })))
    const malformed = Precondition.required("no quotes", "the insight")
    expect(Either.isLeft(malformed) && malformed.left).toMatchObject({ _tag: "ValidationFailed", details: [{ field: "header.if-match" }] })
    expect(Precondition.required("*", "the insight")).toEqual(Either.right(Precondition.any))
  })

  it("optional: absent is none, present is the parsed condition, malformed a validation failure", () => {
    expect(Precondition.optional(undefined)).toEqual(Either.right(Precondition.none))
    expect(Precondition.optional(`W/"a", "b"`)).toEqual(Either.right(Precondition.ifMatch({
      _tag: "Tags",
      tags: [{ weak: true, opaque: "\"a\"" }, { weak: false, opaque: "\"b\"" }]
    })))
    const malformed = Precondition.optional("no quotes")
    expect(Either.isLeft(malformed) && malformed.left).toMatchObject({ _tag: "ValidationFailed", details: [{ field: "header.if-match" }] })
  })
})
