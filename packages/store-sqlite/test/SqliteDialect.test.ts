import { classify, parseSequence } from "../src/SqliteDialect.js"
import { SqlError } from "@effect/sql/SqlError"
import { describe, expect, it } from "@effect/vitest"
import { Either } from "effect"

const failure = (code: string | undefined) =>
  new SqlError({ cause: Object.assign(new Error("sqlite says no"), { code }), message: "Failed to execute statement" })

describe("SQLite failure classification", () => {
  it.each([
    ["SQLITE_CONSTRAINT_UNIQUE", "unique_violation"],
    ["SQLITE_CONSTRAINT_PRIMARYKEY", "unique_violation"],
    ["SQLITE_BUSY", "unavailable"],
    ["SQLITE_BUSY_SNAPSHOT", "unavailable"],
    ["SQLITE_LOCKED", "unavailable"],
    ["SQLITE_IOERR_WRITE", "unavailable"],
    ["SQLITE_CANTOPEN", "unavailable"],
    ["SQLITE_FULL", "unavailable"],
    ["SQLITE_READONLY", "unavailable"],
    ["SQLITE_CONSTRAINT_FOREIGNKEY", "bug"],
    ["SQLITE_CONSTRAINT_CHECK", "bug"],
    ["SQLITE_ERROR", "bug"],
    ["SQLITE_BUSYNESS", "bug"],
    [undefined, "bug"]
  ] as const)("%s is %s", (code, expected) => {
    expect(classify(failure(code))).toBe(expected)
  })
})

describe("SQLite audit positions", () => {
  it("reads back the sequences it issues", () => {
    expect(parseSequence("1")).toEqual(Either.right(1))
    expect(parseSequence("9007199254740991")).toEqual(Either.right(9007199254740991))
  })

  it.each(["", "0", "-1", "01", "1.5", "1e3", " 1", "9007199254740992", "12:34", "NaN"])(
    "refuses %j as InvalidPageToken",
    (position) => {
      const parsed = parseSequence(position)
      expect(Either.isLeft(parsed) && parsed.left._tag).toBe("InvalidPageToken")
    }
  )
})
