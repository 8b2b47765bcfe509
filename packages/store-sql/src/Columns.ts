/**
 * Column codecs that accept what either driver returns, so one row schema serves both stores:
 * better-sqlite3 gives ISO text, 0/1 and JSON text; node-postgres gives `Date`, booleans and
 * parsed jsonb. Writes always bind ISO text and JSON text, which both databases accept.
 */
import { DateTime, Effect, Schema } from "effect"

/** A timestamp: ISO-8601 text (SQLite) or a `Date` (timestamptz). */
export const DbDateTime = Schema.Union(Schema.DateTimeUtc, Schema.DateTimeUtcFromDate)

/** A boolean: 0/1 (SQLite INTEGER) or a boolean (Postgres). */
export const DbBoolean = Schema.Union(
  Schema.Boolean,
  Schema.transform(Schema.Literal(0, 1), Schema.Boolean, {
    strict: true,
    decode: (bit) => bit === 1,
    encode: (flag) => (flag ? 1 : 0)
  })
)

/** A JSON value: text (SQLite) or already parsed (jsonb). */
export const dbJson = <A, I>(schema: Schema.Schema<A, I>) => Schema.Union(schema, Schema.parseJson(schema))

/**
 * How a timestamp is bound: fixed-width ISO-8601 UTC with milliseconds, so that SQLite's text
 * comparison orders it exactly like time (and Postgres parses it into timestamptz).
 */
export const isoText = (value: DateTime.DateTime | Date): string =>
  (value instanceof Date ? value : DateTime.toDateUtc(value)).toISOString()

export const isoTextOrNull = (value: DateTime.DateTime | Date | null): string | null =>
  value === null ? null : isoText(value)

export const jsonText = (value: unknown): string => JSON.stringify(value)

/**
 * Decodes driver rows with a row schema compiled once (per repository, not per row) and maps
 * them to domain values. A row that does not decode means a broken schema: a defect.
 */
export const rowDecoder = <Row, I, A>(row: Schema.Schema<Row, I>, toDomain: (row: Row) => A) => {
  const decodeRows = Schema.decodeUnknown(Schema.Array(row))
  return (rows: ReadonlyArray<unknown>): Effect.Effect<Array<A>> =>
    decodeRows(rows).pipe(
      Effect.map((decoded) => decoded.map(toDomain)),
      Effect.orDie
    )
}
