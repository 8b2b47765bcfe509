/**
 * `DateTime.formatIso` of a UTC instant, computed from its epoch milliseconds: the same text
 * (`Date.prototype.toISOString`'s) without a `Date` per timestamp. Answers hold many timestamps
 * (four per insight, one per audit record) and `formatIso` (a `Date`, then `toISOString`) was
 * ~45% of encoding an insights page. Years outside 0000–9999 (written `±YYYYYY-`) take
 * `formatIso`.
 */
import { DateTime } from "effect"

const DAY = 86_400_000
/** 10000-01-01T00:00:00.000Z: the first instant `toISOString` writes with six year digits. */
const YEAR_10000 = 253_402_300_800_000
const TWO_DIGITS = Array.from({ length: 100 }, (_, n) => (n < 10 ? `0${n}` : `${n}`))

const threeDigits = (n: number): string => (n < 10 ? `00${n}` : n < 100 ? `0${n}` : `${n}`)

/** Year, month and day of a day count since 1970-01-01 (H. Hinnant's `civil_from_days`). */
const civil = (days: number): readonly [year: number, month: number, day: number] => {
  const z = days + 719_468
  const era = Math.floor(z / 146_097)
  const dayOfEra = z - era * 146_097
  const yearOfEra = Math.floor((dayOfEra - Math.floor(dayOfEra / 1460) + Math.floor(dayOfEra / 36_524) - Math.floor(dayOfEra / 146_096)) / 365)
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100))
  const shiftedMonth = Math.floor((5 * dayOfYear + 2) / 153)
  const day = dayOfYear - Math.floor((153 * shiftedMonth + 2) / 5) + 1
  const month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
  return [yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day]
}

export const formatIso = (value: DateTime.Utc): string => {
  const millis = value.epochMillis
  if (!(millis >= 0 && millis < YEAR_10000)) return DateTime.formatIso(value)
  const days = Math.floor(millis / DAY)
  const [year, month, day] = civil(days)
  let rest = millis - days * DAY
  const hours = Math.floor(rest / 3_600_000)
  rest -= hours * 3_600_000
  const minutes = Math.floor(rest / 60_000)
  rest -= minutes * 60_000
  const seconds = Math.floor(rest / 1000)
  return TWO_DIGITS[Math.floor(year / 100)]! + TWO_DIGITS[year % 100]! + "-" + TWO_DIGITS[month]! + "-" + TWO_DIGITS[day]! +
    "T" + TWO_DIGITS[hours]! + ":" + TWO_DIGITS[minutes]! + ":" + TWO_DIGITS[seconds]! + "." + threeDigits(rest - seconds * 1000) + "Z"
}
