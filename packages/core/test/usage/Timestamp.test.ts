import { describe, expect, it } from "@effect/vitest"
import { FastCheck as fc } from "effect"
import { parseTimestamp } from "../../src/usage/internal/Timestamp.js"

const iso = (text: string) => parseTimestamp(text)?.toISOString()

describe("parseTimestamp", () => {
  it.each([
    ["2024-05-01", "2024-05-01T00:00:00.000Z"],
    ["2024-05-01T12:30", "2024-05-01T12:30:00.000Z"],
    ["2024-05-01 12:30:15", "2024-05-01T12:30:15.000Z"],
    ["2024-05-01T12:30:15.5Z", "2024-05-01T12:30:15.500Z"],
    ["2024-05-01 12:30:15.123456789", "2024-05-01T12:30:15.123Z"],
    ["2024-05-01T12:30:15+02:00", "2024-05-01T10:30:15.000Z"],
    ["2024-05-01 12:30:15.000 -0700", "2024-05-01T19:30:15.000Z"],
    ["2024-05-01T00:30:00-01", "2024-05-01T01:30:00.000Z"],
    ["2024-02-29T00:00:00z", "2024-02-29T00:00:00.000Z"],
    ["  2024-05-01T00:00:00Z  ", "2024-05-01T00:00:00.000Z"],
    ["0050-03-01T00:00:00Z", "0050-03-01T00:00:00.000Z"]
  ])("reads %s as %s (no offset: UTC)", (text, expected) => {
    expect(iso(text)).toBe(expected)
  })

  it.each([
    "yesterday",
    "5",
    "May 1 2024",
    "2024-5-1",
    "2024-05-01T",
    "2024-13-01",
    "2023-02-29",
    "2024-04-31",
    "2024-05-01T24:00",
    "2024-05-01T12:60",
    "2024-05-01T12:00:60",
    "2024-05-01T12:00+24:00",
    "2024-05-01T12:00+02:60",
    "1714564800000"
  ])("refuses %s", (text) => {
    expect(parseTimestamp(text)).toBeUndefined()
  })

  it.prop("reads every ISO string a Date writes as that instant", {
    date: fc.date({ min: new Date("0001-01-01T00:00:00Z"), max: new Date("9999-12-31T23:59:59.999Z"), noInvalidDate: true })
  }, ({ date }) => {
    expect(parseTimestamp(date.toISOString())?.getTime()).toBe(date.getTime())
  })
})
