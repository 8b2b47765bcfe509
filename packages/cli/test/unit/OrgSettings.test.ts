import { Either } from "effect"
import { describe, expect, it } from "vitest"
import { parseSetting } from "../../src/commands/org.js"

describe("parseSetting", () => {
  it.each([
    ["trial_end_date=2030-01-31", ["trial_end_date", "2030-01-31"]],
    ["beta=true", ["beta", true]],
    ["credits=1.5", ["credits", 1.5]],
    ["features={\"beta\":true}", ["features", { beta: true }]],
    ["note=", ["note", ""]],
    ["quoted=\"5\"", ["quoted", "5"]],
    ["expr=a=b", ["expr", "a=b"]]
  ])("%s", (assignment, expected) => {
    expect(parseSetting(assignment)).toStrictEqual(Either.right(expected))
  })

  it.each(["novalue", "=x", "Upper=1", "1st=1", "with space=1"])("refuses %s", (assignment) => {
    expect(Either.isLeft(parseSetting(assignment))).toBe(true)
  })
})
