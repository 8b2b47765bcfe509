/**
 * Views are counted at most once per (insight, user, UTC calendar day). The day key is what the
 * stores put in their unique index, so the rule holds across concurrent calls and instances.
 */
import { DateTime } from "effect"

const pad = (value: number, width: number) => String(value).padStart(width, "0")

/**
 * `YYYY-MM-DD` of the instant in UTC, whatever the zone of the DateTime.
 * @since 0.1.0
 * @category utils
 */
export const dayKey = (at: DateTime.DateTime): string => {
  const { year, month, day } = DateTime.toPartsUtc(at)
  // Explicit sign: Date's ISO form switches to ±YYYYYY outside 0000-9999 and would break the key.
  return `${year < 0 ? "-" : ""}${pad(Math.abs(year), 4)}-${pad(month, 2)}-${pad(day, 2)}`
}
