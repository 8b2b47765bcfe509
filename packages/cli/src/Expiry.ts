/** `--expires`: a duration from now (`90d`, `12h`, `30m`) or a date-time (`2027-01-31`, ISO 8601). */
import { DateTime, Duration, Either } from "effect"

const DURATION = /^(\d+)(m|h|d|w)$/
const UNIT: Record<string, (n: number) => Duration.Duration> = {
  m: Duration.minutes,
  h: Duration.hours,
  d: Duration.days,
  w: Duration.weeks
}

export const parseExpiry = (raw: string, now: DateTime.Utc): Either.Either<DateTime.Utc, string> => {
  const text = raw.trim()
  const duration = DURATION.exec(text)
  if (duration !== null) return Either.right(DateTime.addDuration(now, UNIT[duration[2]!]!(Number(duration[1]))))
  const at = /^\d{4}-\d{2}-\d{2}/.test(text) ? DateTime.make(text) : undefined
  if (at === undefined || at._tag === "None") {
    return Either.left(`--expires '${raw}' is neither a duration (90d, 12h, 30m, 2w) nor a date (2027-01-31)`)
  }
  const utc = DateTime.toUtc(at.value)
  return DateTime.lessThan(now, utc) ? Either.right(utc) : Either.left(`--expires '${raw}' is not in the future`)
}
