import { describe, expect, it } from "@effect/vitest"
import { Schema } from "effect"
import { Month, range } from "../../src/usage/Month.js"

describe("Month", () => {
  it.each(["2024-01", "2024-12", "0001-06"])("accepts %s", (text) => {
    expect(Schema.is(Month)(text)).toBe(true)
  })

  it.each(["2024-00", "2024-13", "2024-5", "24-05", "2024-05-01", "2024/05", ""])("refuses %s", (text) => {
    expect(Schema.is(Month)(text)).toBe(false)
  })

  it("a month is the half-open range from its first instant to the next month's", () => {
    expect(range(Month.make("2024-02"))).toEqual({ from: new Date("2024-02-01T00:00:00Z"), to: new Date("2024-03-01T00:00:00Z") })
    expect(range(Month.make("2024-12"))).toEqual({ from: new Date("2024-12-01T00:00:00Z"), to: new Date("2025-01-01T00:00:00Z") })
  })
})
