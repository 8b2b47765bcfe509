/** The HTTP `Retry-After` header (RFC 9110 §10.2.3): delay-seconds or an HTTP-date. */
import { Duration } from "effect"

/** The wait the header asks for, measured from `nowMillis`; undefined when absent or unreadable. */
export const parseRetryAfter = (header: string | undefined, nowMillis: number): Duration.Duration | undefined => {
  const value = header?.trim()
  if (value === undefined || value === "") return undefined
  if (/^\d+$/.test(value)) return Duration.seconds(Number(value))
  // HTTP-dates are always in GMT; anything else Date.parse accepts ("-5" is year -5) is not one.
  const date = value.endsWith("GMT") ? Date.parse(value) : Number.NaN
  return Number.isNaN(date) ? undefined : Duration.millis(Math.max(0, date - nowMillis))
}
