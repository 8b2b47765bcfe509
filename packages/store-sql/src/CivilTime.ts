/**
 * Calendar arithmetic for reading timestamps the stores wrote, without `Date`'s parser: each
 * store's timestamp text (SQLite's ISO text, `Columns.isoTextMillis`; Postgres's `timestamptz`
 * output, store-pg's `Timestamps`) is read digit by digit into epoch milliseconds.
 */

/** Milliseconds in a day. */
export const DAY = 86_400_000

/** Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's `days_from_civil`). */
export const daysFromCivil = (year: number, month: number, day: number): number => {
  const y = month <= 2 ? year - 1 : year
  const era = Math.floor(y / 400)
  const yearOfEra = y - era * 400
  const dayOfYear = Math.floor((153 * (month > 2 ? month - 3 : month + 9) + 2) / 5) + day - 1
  return era * 146_097 + yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear - 719_468
}

/** Days in `month` (1–12) of `year`. */
export const daysInMonth = (year: number, month: number): number =>
  month === 2 ? (year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28) : month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31

/** The digits of `text` from `start` to `end` as a number, or -1 if one is not a digit. */
export const digits = (text: string, start: number, end: number): number => {
  let value = 0
  for (let index = start; index < end; index++) {
    const digit = text.charCodeAt(index) - 48
    if (digit < 0 || digit > 9) return -1
    value = value * 10 + digit
  }
  return value
}

/**
 * The epoch milliseconds of the date and time written as `YYYY-MM-DD?HH:MM:SS` at the start of
 * `text` (any character between date and time; the caller checks the separators), or undefined
 * when a field is not digits or out of range (a day past its month's end included).
 */
export const dateTimeMillis = (text: string): number | undefined => {
  const year = digits(text, 0, 4)
  const month = digits(text, 5, 7)
  const day = digits(text, 8, 10)
  const hours = digits(text, 11, 13)
  const minutes = digits(text, 14, 16)
  const seconds = digits(text, 17, 19)
  if (
    year < 0 || month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month) || hours < 0 || hours > 23 ||
    minutes < 0 || minutes > 59 || seconds < 0 || seconds > 59
  ) return undefined
  return daysFromCivil(year, month, day) * DAY + hours * 3_600_000 + minutes * 60_000 + seconds * 1000
}
