import { describe, expect, it } from "@effect/vitest"
import { Either } from "effect"
import * as ETag from "../../src/shared/ETag.js"

const condition = (header: string) => Either.getOrThrow(ETag.parse("if-match", header))
const current = ETag.compute({ name: "Data" })

describe("checkIfMatch", () => {
  it.each([
    ["no If-Match", undefined, true],
    ["the current ETag", condition(current), true],
    ["*", condition("*"), true],
    ["a list holding the current ETag", condition(`"old", ${current}`), true],
    ["another ETag", condition("\"old\""), false],
    ["the current ETag, weak", condition(`W/${current}`), false]
  ])("%s → passes: %s", (_, ifMatch, passes) => {
    const result = ETag.checkIfMatch(ifMatch, current, "the team")
    expect(Either.isRight(result)).toBe(passes)
    if (Either.isLeft(result)) {
      expect(result.left).toMatchObject({ _tag: "PreconditionFailed", message: "the team has changed since it was read (If-Match does not match)" })
    }
  })
})
