/**
 * How the store's connections read `timestamptz` columns. node-postgres parses each one with
 * `postgres-date`: three regular expressions, `parseInt`s and `Date.UTC`, ~0.6 µs a value. A
 * 50-insight page reads up to 200 of them and a 500-record audit page 500: a tenth of a page's
 * CPU (issue 19). The text Postgres writes (`DateStyle` ISO) has one fixed shape,
 * `YYYY-MM-DD HH:MM:SS[.ffffff]±HH[:MM[:SS]]`, which is read here by arithmetic into the same
 * `Date`. Anything else (a year past 9999, BC, `infinity`) goes to the driver's own parser.
 */
import { CivilTime } from "@costline/store-sql"
import pg from "pg"

const { dateTimeMillis, digits } = CivilTime

/**
 * Milliseconds since the epoch of `text` when it has the shape Postgres writes a `timestamptz` in
 * (a four-digit year), else `undefined`. Fractions past the millisecond are dropped, as
 * `postgres-date` drops them.
 */
export const timestamptzMillis = (text: string): number | undefined => {
  // "YYYY-MM-DD HH:MM:SS" then an optional fraction then the zone.
  if (text.length < 22 || text.charCodeAt(4) !== 45 || text.charCodeAt(7) !== 45 || text.charCodeAt(10) !== 32 ||
    text.charCodeAt(13) !== 58 || text.charCodeAt(16) !== 58) return undefined
  const dateTime = dateTimeMillis(text)
  if (dateTime === undefined) return undefined
  let at = 19
  let millis = 0
  if (text.charCodeAt(at) === 46) {
    const start = ++at
    while (at < text.length && at - start < 6) {
      const digit = text.charCodeAt(at) - 48
      if (digit < 0 || digit > 9) break
      if (at - start < 3) millis = millis * 10 + digit
      at++
    }
    const read = at - start
    if (read === 0) return undefined
    for (let place = read; place < 3; place++) millis *= 10
  }
  // The zone: ±HH, ±HH:MM or ±HH:MM:SS, and nothing after it.
  const sign = text.charCodeAt(at)
  if (sign !== 43 && sign !== 45) return undefined
  const rest = text.length - at - 1
  if (rest !== 2 && rest !== 5 && rest !== 8) return undefined
  const zoneHours = digits(text, at + 1, at + 3)
  const zoneMinutes = rest >= 5 && text.charCodeAt(at + 3) === 58 ? digits(text, at + 4, at + 6) : rest >= 5 ? -1 : 0
  const zoneSeconds = rest === 8 && text.charCodeAt(at + 6) === 58 ? digits(text, at + 7, at + 9) : rest === 8 ? -1 : 0
  if (zoneHours < 0 || zoneMinutes < 0 || zoneSeconds < 0) return undefined
  const offset = (zoneHours * 3600 + zoneMinutes * 60 + zoneSeconds) * 1000 * (sign === 45 ? -1 : 1)
  return dateTime + millis - offset
}

const TIMESTAMPTZ_OID = 1184
const driverTimestamptz = pg.types.getTypeParser(TIMESTAMPTZ_OID, "text") as (text: string) => unknown

/** A `timestamptz` as node-postgres gives it (a `Date`, or what its parser gives for the rest). */
export const parseTimestamptz = (text: string): unknown => {
  const millis = timestamptzMillis(text)
  return millis === undefined ? driverTimestamptz(text) : new Date(millis)
}

/** The driver's type parsers, with `timestamptz` read by `parseTimestamptz`: the pool's `types`. */
export const types: pg.CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: string) =>
    oid === TIMESTAMPTZ_OID && (format === undefined || format === "text")
      ? parseTimestamptz
      : pg.types.getTypeParser(oid, format as "text")) as pg.CustomTypesConfig["getTypeParser"]
}
