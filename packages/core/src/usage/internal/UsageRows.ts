/**
 * One row of a usage file (a JSON Lines object, or a CSV record made into one) → a UsageRecord,
 * or the problems that keep it from being one. Stricter than `UsageRecord` itself: timestamps
 * must be ISO 8601 (see Timestamp), and an unknown column is an error, since a misspelt
 * dimension would otherwise import silently as "no value" and skew every attribution.
 */
import { Either, ParseResult, Schema } from "effect"
import { isStorableJson, STORABLE_TEXT_MESSAGE } from "../../shared/StorableText.js"
import { UsageRecord } from "../Domain.js"
import { parseTimestamp } from "./Timestamp.js"

export type Column = keyof typeof UsageRecord.fields

/** Every column a usage file may have, in the order documented. */
export const COLUMNS = Object.keys(UsageRecord.fields) as ReadonlyArray<Column>

export const REQUIRED_COLUMNS: ReadonlyArray<Column> = ["start_time", "credits"]

const StartTime = Schema.transformOrFail(Schema.String, Schema.DateFromSelf, {
  strict: true,
  decode: (text, _, ast) => {
    const date = parseTimestamp(text)
    return date === undefined
      ? ParseResult.fail(
        new ParseResult.Type(ast, text, `must be an ISO 8601 timestamp such as 2024-05-01T12:00:00Z, not ${JSON.stringify(text)}`)
      )
      : ParseResult.succeed(date)
  },
  encode: (date) => ParseResult.succeed(date.toISOString())
})

const ImportedRecord = Schema.Struct({ ...UsageRecord.fields, start_time: StartTime })
const KNOWN_COLUMNS: ReadonlySet<string> = new Set(COLUMNS)

// Compiled once: this runs for every row of a file, twice per import. Valid rows, the usual
// case, take the quick decoding (first problem only, unknown columns checked by hand, at half the
// cost of the strict one); only a row that fails it is decoded again to describe every problem.
const decodeQuickly = Schema.decodeUnknownEither(ImportedRecord)
const decodeThoroughly = Schema.decodeUnknownEither(ImportedRecord, { errors: "all", onExcessProperty: "error" })

const describeIssue = (issue: ParseResult.ArrayFormatterIssue): string => {
  const column = issue.path.map(String).join(".")
  switch (issue._tag) {
    case "Unexpected":
      return `unknown column '${column}'; the columns are ${COLUMNS.join(", ")}`
    case "Missing":
      return `${column} is required`
    default:
      return `${column}: ${issue.message}`
  }
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value)

/** The record, or a one-line description of every problem with the row. */
export const decodeRow = (row: unknown): Either.Either<UsageRecord, string> => {
  if (!isObject(row)) return Either.left("a row must be a JSON object")
  const quick = decodeQuickly(row)
  if (Either.isLeft(quick) || Object.keys(row).some((column) => !KNOWN_COLUMNS.has(column))) {
    return Either.match(decodeThoroughly(row), {
      onLeft: (error) => Either.left(ParseResult.ArrayFormatter.formatErrorSync(error).map(describeIssue).join("; ")),
      onRight: () => Either.left("the row could not be read")
    })
  }
  // Every store must keep what it is given: Postgres refuses NUL in text and jsonb.
  return isStorableJson(row) ? Either.right(quick.right) : Either.left(`text ${STORABLE_TEXT_MESSAGE}`)
}
