/**
 * The store reads `timestamptz` columns by arithmetic (`Timestamps`), into the same `Date` the
 * driver's parser gives: for every shape Postgres writes in, whatever the session's time zone,
 * and by the driver's parser for the shapes the arithmetic does not take.
 */
import { PgStore } from "@costline/store-pg"
import { SqlClient } from "@effect/sql/SqlClient"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer } from "effect"
import fc from "fast-check"
import pg from "pg"
import { parseTimestamptz, timestamptzMillis } from "../src/Timestamps.js"
import { useFreshDatabase } from "./support/database.js"

const driver = pg.types.getTypeParser(1184, "text") as (text: string) => unknown
const pad = (value: number, width: number) => String(value).padStart(width, "0")

/** Text in the shape Postgres writes a `timestamptz` in. */
const timestamptzText = fc.record({
  year: fc.integer({ min: 1, max: 9999 }),
  month: fc.integer({ min: 1, max: 12 }),
  day: fc.integer({ min: 1, max: 31 }),
  hours: fc.integer({ min: 0, max: 23 }),
  minutes: fc.integer({ min: 0, max: 59 }),
  seconds: fc.integer({ min: 0, max: 59 }),
  fraction: fc.option(fc.stringMatching(/^[0-9]{1,6}$/), { nil: undefined }),
  zone: fc.oneof(
    fc.constant("+00"),
    fc.tuple(fc.constantFrom("+", "-"), fc.integer({ min: 0, max: 15 })).map(([sign, hours]) => `${sign}${pad(hours, 2)}`),
    fc.tuple(fc.constantFrom("+", "-"), fc.integer({ min: 0, max: 15 }), fc.constantFrom(30, 45)).map(([sign, hours, minutes]) =>
      `${sign}${pad(hours, 2)}:${minutes}`
    ),
    fc.tuple(fc.constantFrom("+", "-"), fc.integer({ min: 0, max: 15 }), fc.integer({ min: 0, max: 59 }), fc.integer({ min: 1, max: 59 }))
      .map(([sign, hours, minutes, seconds]) => `${sign}${pad(hours, 2)}:${pad(minutes, 2)}:${pad(seconds, 2)}`)
  )
}).map(({ day, fraction, hours, minutes, month, seconds, year, zone }) =>
  `${pad(year, 4)}-${pad(month, 2)}-${pad(day, 2)} ${pad(hours, 2)}:${pad(minutes, 2)}:${pad(seconds, 2)}${fraction === undefined ? "" : `.${fraction}`}${zone}`
)

const timeOf = (value: unknown) => value instanceof Date ? value.getTime() : value

describe("a timestamptz read by arithmetic", () => {
  it("is the driver's Date for every text in Postgres's shape (days past a month's end go to the driver)", () => {
    fc.assert(
      fc.property(timestamptzText, (text) => {
        const read = parseTimestamptz(text)
        expect(read).toBeInstanceOf(Date)
        expect(timeOf(read)).toBe(timeOf(driver(text)))
      }),
      { numRuns: 5_000 }
    )
    // Every millisecond and every length of fraction.
    for (let millis = 0; millis < 1000; millis++) {
      for (const extra of ["", "4", "45", "456"]) {
        const fraction = `${pad(millis, 3)}${extra}`
        for (const digits of [1, 2, 3, 3 + extra.length]) {
          const text = `2026-11-26 21:04:22.${fraction.slice(0, digits)}+00`
          expect(timeOf(parseTimestamptz(text)), text).toBe(timeOf(driver(text)))
        }
      }
    }
  })

  it("leaves to the driver what Postgres writes in another shape", () => {
    for (
      const text of [
        "infinity",
        "-infinity",
        "0044-03-15 12:00:00+00 BC",
        "12345-01-01 00:00:00+00",
        "2026-02-30 00:00:00+00",
        "2026-13-01 00:00:00+00",
        "2026-11-26 24:00:00+00",
        "2026-11-26 21:04:22.+00",
        "2026-11-26 21:04:22.1234567+00",
        "2026-11-26 21:04:22",
        "2026-11-26T21:04:22.308Z",
        "2026-11-26 21:04:22+5",
        "2026-11-26 21:04:22+05:3",
        "2026-11-26 21:04:22+05-30",
        "2026-11-26 21:04:22+05:30:0",
        "2026-11-26 21:04:22+0a",
        "\u00002026-11-26 21:04:22+00"
      ]
    ) {
      expect(timestamptzMillis(text), text).toBeUndefined()
      expect(timeOf(parseTimestamptz(text)), text).toEqual(timeOf(driver(text)))
    }
  })
})

const url = useFreshDatabase()

describe("the store's connections", () => {
  it.effect("read timestamptz columns as the driver would, in any session time zone", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient
      const instants = ["2026-11-26T21:04:22.308Z", "1999-12-31T23:59:59.999Z", "2000-02-29T00:00:00.000Z", "0099-06-01T12:00:00.100Z"]
      for (const zone of ["UTC", "Asia/Kolkata", "America/St_Johns", "Pacific/Chatham", "Africa/Monrovia"]) {
        const rows = yield* sql.withTransaction(Effect.gen(function*() {
          yield* sql.unsafe(`SET LOCAL TIME ZONE '${zone}'`)
          return yield* sql.unsafe<{ readonly at: Date; readonly text: string }>(
            `SELECT at, at::text AS text FROM unnest($1::timestamptz[]) AS at`,
            [instants]
          )
        }))
        expect(rows.map((row) => row.at.toISOString())).toEqual(instants)
        for (const row of rows) expect(timeOf(row.at)).toBe(timeOf(driver(row.text)))
      }
      // 1894-01-01 in Africa/Monrovia has a zone of -00:43:08: seconds in the offset.
      const [old] = yield* sql.withTransaction(Effect.gen(function*() {
        yield* sql.unsafe(`SET LOCAL TIME ZONE 'Africa/Monrovia'`)
        return yield* sql.unsafe<{ readonly at: Date; readonly text: string }>(
          `SELECT '1894-01-01T12:00:00Z'::timestamptz AS at, '1894-01-01T12:00:00Z'::timestamptz::text AS text`
        )
      }))
      expect(old!.text).toMatch(/-00:43:08$/)
      expect(old!.at.toISOString()).toBe("1894-01-01T12:00:00.000Z")
    }).pipe(Effect.provide(Layer.orDie(PgStore.layer({ url, verifiedKeyCache: false })))))

  it.effect("do not hand Postgres's timestamptz text to the driver's parser", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient
      // The process-wide parser the driver would use, counted while this test runs.
      let driverReads = 0
      pg.types.setTypeParser(1184, (text: string) => {
        driverReads++
        return driver(text)
      })
      yield* Effect.addFinalizer(() => Effect.sync(() => pg.types.setTypeParser(1184, driver)))
      const rows = yield* sql.unsafe<{ readonly at: Date }>(`SELECT now() AS at, 'infinity'::timestamptz AS never`)
      expect(rows[0]!.at).toBeInstanceOf(Date)
      // 'infinity', which the arithmetic does not read, goes to the driver's parser as the store found it at its start.
      expect(driverReads).toBe(0)
    }).pipe(Effect.scoped, Effect.provide(Layer.orDie(PgStore.layer({ url, verifiedKeyCache: false })))))
})
