/**
 * Query-string parameter schemas shared by the list endpoints. Each decodes the raw string(s)
 * and fails with a message that says what a valid value looks like.
 */
import { ParseResult, Schema } from "effect"

const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(\.\d{1,9})?)?(Z|[+-](\d{2}):(\d{2}))?$/i

const isLeapYear = (year: number) => year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0)

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]

const daysInMonth = (year: number, month: number) => month === 2 && isLeapYear(year) ? 29 : DAYS_IN_MONTH[month - 1]!

/**
 * An ISO 8601 date-time with at least minutes: `2024-05-01T12:00Z`, `2024-05-01T12:00:00.5+02:00`.
 * Without an offset it is UTC (never the server's local time). Impossible dates such as
 * February 30 are rejected rather than rolled over.
 */
export const parseDateTime = (text: string): Date | undefined => {
  const match = DATE_TIME.exec(text)
  if (match === null) return undefined
  const [year, month, day, hour, minute, second, offsetHours, offsetMinutes] = [1, 2, 3, 4, 5, 6, 9, 10].map((group) =>
    Number(match[group] ?? 0)
  ) as [number, number, number, number, number, number, number, number]
  const valid = month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(year, month) &&
    hour <= 23 && minute <= 59 && second <= 59 && offsetHours <= 23 && offsetMinutes <= 59
  if (!valid) return undefined
  const date = new Date(match[8] === undefined ? `${text}Z` : text)
  return Number.isNaN(date.getTime()) ? undefined : date
}

const DATE_TIME_HINT = "must be an ISO 8601 date-time such as 2024-05-01T12:00:00Z"

export const DateTimeParam = Schema.transformOrFail(
  Schema.String.annotations({ jsonSchema: { format: "date-time" } }),
  Schema.DateFromSelf,
  {
    strict: true,
    decode: (text, _, ast) => {
      const date = parseDateTime(text)
      return date === undefined ? ParseResult.fail(new ParseResult.Type(ast, text, DATE_TIME_HINT)) : ParseResult.succeed(date)
    },
    encode: (date) => ParseResult.succeed(date.toISOString())
  }
)

/** An integer within bounds, written in decimal digits (no `1e2`, `0x10` or blanks). */
export const integerParam = (min: number, max: number) =>
  Schema.transformOrFail(Schema.String, Schema.Int.pipe(Schema.between(min, max)), {
    strict: true,
    decode: (text, _, ast) => {
      const value = Number(text)
      return /^[+-]?\d{1,16}$/.test(text) && value >= min && value <= max
        ? ParseResult.succeed(value)
        : ParseResult.fail(new ParseResult.Type(ast, text, `must be an integer from ${min} to ${max}`))
    },
    encode: (value) => ParseResult.succeed(String(value))
  }).annotations({ jsonSchema: { type: "integer", minimum: min, maximum: max } })

/**
 * A set filter: values separated by commas, and the parameter may repeat, so `?x=a,b&x=c` is
 * `[a, b, c]`. Items are trimmed; each must be a valid `item` (described by `expected` in errors),
 * and there may be at most `maxItems` of them.
 */
export const listParam = <A extends string>(item: Schema.Schema<A, string>, expected: string, maxItems = Infinity) => {
  const isItem = Schema.is(item)
  return Schema.transformOrFail(Schema.Array(Schema.String), Schema.Array(Schema.typeSchema(item)), {
    strict: true,
    decode: (values, _, ast) => {
      const items = values.flatMap((value) => value.split(",")).map((value) => value.trim())
      if (items.length > maxItems) {
        return ParseResult.fail(new ParseResult.Type(ast, values, `must list at most ${maxItems} values, not ${items.length}`))
      }
      const invalid = items.find((value) => !isItem(value))
      return invalid === undefined
        ? ParseResult.succeed(items as Array<A>)
        : ParseResult.fail(new ParseResult.Type(ast, invalid, `'${invalid}' is not ${expected}`))
    },
    encode: ParseResult.succeed
  })
}

/** A set filter over a closed set of names. */
export const oneOfList = <const L extends readonly [string, ...Array<string>]>(names: Schema.Literal<L>, maxItems = Infinity) =>
  listParam(names as Schema.Schema<L[number], string>, `one of: ${names.literals.join(", ")}`, maxItems).annotations({
    // The document names the values; the query string carries them repeated or comma-separated.
    jsonSchema: { type: "array", items: { type: "string", enum: names.literals } }
  })

export const NonEmptyText = Schema.String.pipe(Schema.minLength(1))
