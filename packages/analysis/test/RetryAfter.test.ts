import { describe, expect, it } from "@effect/vitest"
import { Duration } from "effect"
import { parseRetryAfter } from "../src/RetryAfter.js"

const NOW = Date.parse("2025-03-01T12:00:00Z")

describe("parseRetryAfter", () => {
  it("reads delay-seconds", () => {
    expect(parseRetryAfter("120", NOW)).toEqual(Duration.seconds(120))
    expect(parseRetryAfter(" 0 ", NOW)).toEqual(Duration.seconds(0))
  })

  it("reads an HTTP-date as the time left until it", () => {
    expect(parseRetryAfter("Sat, 01 Mar 2025 12:00:30 GMT", NOW)).toEqual(Duration.millis(30_000))
    expect(parseRetryAfter("Sat, 01 Mar 2025 11:00:00 GMT", NOW)).toEqual(Duration.millis(0))
  })

  it("ignores a missing or unreadable header", () => {
    expect(parseRetryAfter(undefined, NOW)).toBeUndefined()
    expect(parseRetryAfter("", NOW)).toBeUndefined()
    expect(parseRetryAfter("soon", NOW)).toBeUndefined()
    expect(parseRetryAfter("-5", NOW)).toBeUndefined()
  })
})
