/**
 * Timestamps of imported usage rows. `new Date(text)` accepts far too much (`"5"`, `"May 1"`) and
 * reads offset-less text in the machine's time zone, so an import would depend on where it runs.
 * This accepts ISO 8601 as warehouses export it, and reads a timestamp without an offset as UTC:
 *
 *   2024-05-01                        midnight UTC
 *   2024-05-01T12:30  2024-05-01 12:30:15.123456   (`T` or a space; fractions beyond ms dropped)
 *   2024-05-01T12:30:15Z  2024-05-01 12:30:15 -0700  2024-05-01T12:30:15+02:00
 */
const TIMESTAMP =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?\s?(Z|[+-]\d{2}(?::?\d{2})?)?)?$/i

const isLeapYear = (year: number) => year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0)
const DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
const daysIn = (year: number, month: number) => (month === 2 && isLeapYear(year) ? 29 : DAYS[month - 1]!)

/** `Date.UTC` reads years 0-99 as 1900-1999; `setUTCFullYear` does not. */
const utc = (year: number, month: number, day: number, hour: number, minute: number, second: number, millis: number) => {
  const date = new Date(Date.UTC(2000, month - 1, day, hour, minute, second, millis))
  date.setUTCFullYear(year)
  return date
}

const offsetMinutes = (offset: string | undefined): number | undefined => {
  if (offset === undefined || offset.toUpperCase() === "Z") return 0
  const digits = offset.slice(1).replace(":", "")
  const hours = Number(digits.slice(0, 2))
  const minutes = digits.length > 2 ? Number(digits.slice(2)) : 0
  if (hours > 23 || minutes > 59) return undefined
  return (offset[0] === "-" ? -1 : 1) * (hours * 60 + minutes)
}

/** The instant the text names, or undefined when it is not such a timestamp or names no real date. */
export const parseTimestamp = (text: string): Date | undefined => {
  const match = TIMESTAMP.exec(text.trim())
  if (match === null) return undefined
  const [year, month, day, hour, minute, second] = match.slice(1, 7).map((part) => Number(part ?? 0)) as [
    number,
    number,
    number,
    number,
    number,
    number
  ]
  const offset = offsetMinutes(match[8])
  const valid = month >= 1 && month <= 12 && day >= 1 && day <= daysIn(year, month) &&
    hour <= 23 && minute <= 59 && second <= 59 && offset !== undefined
  if (!valid) return undefined
  const millis = Number((match[7] ?? "").padEnd(3, "0").slice(0, 3))
  return new Date(utc(year, month, day, hour, minute, second, millis).getTime() - offset * 60_000)
}

const isDigit = (code: number) => code >= 0x30 && code <= 0x39
const digits2 = (text: string, at: number) => (text.charCodeAt(at) - 0x30) * 10 + text.charCodeAt(at + 1) - 0x30

/** Distinct hours a reader remembers; beyond that it starts over (exports hold a few thousand). */
const CACHED_HOURS = 10_000

/**
 * `parseTimestamp` for millions of timestamps of few distinct hours, as `epoch ms` (undefined as
 * it would be): the instant of each `YYYY-MM-DD HH` and offset text is computed once, by
 * `parseTimestamp` itself, and the minutes, seconds and milliseconds read by hand and added. Any
 * text of another shape (no seconds, spaces around it) goes to `parseTimestamp` whole, so the
 * result is the same for every text.
 */
export const makeTimestampReader = (): ((text: string) => number | undefined) => {
  const hours = new Map<string, number | undefined>()
  return (text) => {
    // 2024-05-01 12:30:15[.fraction][ ][offset]
    const n = text.length
    const shaped = n >= 19 && text.charCodeAt(13) === 0x3a && text.charCodeAt(16) === 0x3a &&
      isDigit(text.charCodeAt(14)) && isDigit(text.charCodeAt(15)) && isDigit(text.charCodeAt(17)) &&
      isDigit(text.charCodeAt(18)) && text.charCodeAt(0) > 0x20 && text.charCodeAt(n - 1) > 0x20
    if (!shaped) return parseTimestamp(text)?.getTime()
    let at = 19
    let millis = 0
    if (text.charCodeAt(at) === 0x2e) {
      let count = 0
      at++
      while (at < n && isDigit(text.charCodeAt(at))) {
        if (count < 3) millis = millis * 10 + text.charCodeAt(at) - 0x30
        count++
        at++
      }
      if (count === 0 || count > 9) return parseTimestamp(text)?.getTime()
      for (let pad = count; pad < 3; pad++) millis *= 10
    }
    const minute = digits2(text, 14)
    const second = digits2(text, 17)
    if (minute > 59 || second > 59) return undefined
    const zone = text.slice(at)
    const key = text.slice(0, 13) + zone
    let hour = hours.get(key)
    if (hour === undefined && !hours.has(key)) {
      if (hours.size >= CACHED_HOURS) hours.clear()
      hour = parseTimestamp(`${text.slice(0, 13)}:00:00${zone}`)?.getTime()
      hours.set(key, hour)
    }
    return hour === undefined ? undefined : hour + minute * 60_000 + second * 1000 + millis
  }
}
