/**
 * Column codecs that accept what either driver returns, so one row schema serves both stores:
 * better-sqlite3 gives ISO text, 0/1 and JSON text; node-postgres gives `Date`, booleans and
 * parsed jsonb. Writes always bind ISO text and JSON text, which both databases accept.
 */
import { CanonicalTime } from "@costline/core"
import { DateTime, Effect, Schema } from "effect"
import { dateTimeMillis, digits } from "./CivilTime.js"

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

/**
 * Readers for rows of the hot tables (audit records, insights), which are read far more often
 * than written: each column is converted from what either driver returns, without the row
 * schema's validation. Those rows are only ever written by this package from domain values that
 * were validated on the way in, so checking them again on every read (a full Schema decode cost
 * ~9 µs per audit record, half the time of a 500-record page) would only re-prove the write.
 * The repository contract checks, on both stores, that what is read back equals what was written.
 */
/** `-`, `T`, `:`, `.` and `Z` at their places in `YYYY-MM-DDTHH:mm:ss.sssZ` (an indexed loop: no iterator per text). */
const SEPARATOR_AT = [4, 7, 10, 13, 16, 19, 23]
const SEPARATOR_CODE = [45, 45, 84, 58, 58, 46, 90]

/**
 * The epoch milliseconds of `text` when it is exactly what `isoText` binds (a valid
 * `YYYY-MM-DDTHH:mm:ss.sssZ`), else `undefined`: computed, not parsed by `Date`.
 */
export const isoTextMillis = (text: string): number | undefined => {
  if (text.length !== 24) return undefined
  for (let index = 0; index < SEPARATOR_AT.length; index++) {
    if (text.charCodeAt(SEPARATOR_AT[index]!) !== SEPARATOR_CODE[index]) return undefined
  }
  const dateTime = dateTimeMillis(text)
  const millis = digits(text, 20, 23)
  return dateTime === undefined || millis < 0 ? undefined : dateTime + millis
}

/**
 * A timestamp column as `DateTime.unsafeMake` reads it. SQLite's text is what `isoText` wrote,
 * so its instant is computed from the digits: `unsafeMake` tests the text against a zone pattern
 * and parses it with `Date` (~1.3 µs a timestamp, 6% of an audit page). That text is the
 * instant's canonical one, so the instant keeps it (`CanonicalTime`: an answer writes it as is).
 * A valid `Date` (Postgres) is read by its milliseconds; any other value takes `unsafeMake`.
 */
const readDateTime = (value: unknown): DateTime.Utc => {
  if (typeof value === "string") {
    const millis = isoTextMillis(value)
    if (millis !== undefined) return CanonicalTime.make(millis, value)
  } else if (value instanceof Date) {
    const millis = value.getTime()
    if (!Number.isNaN(millis)) return CanonicalTime.make(millis)
  }
  return DateTime.unsafeMake(value as string | Date) as DateTime.Utc
}

export const TrustedColumn = {
  dateTime: readDateTime,
  nullableDateTime: (value: unknown): DateTime.Utc | null => value === null ? null : readDateTime(value),
  /** JSON text (SQLite) or parsed jsonb (Postgres). */
  json: (value: unknown): any => (typeof value === "string" ? JSON.parse(value) : value),
  boolean: (value: unknown): boolean => value === true || value === 1,
  /** An integer, also a Postgres bigint, which arrives as text. */
  integer: (value: unknown): number => (typeof value === "number" ? value : Number(value))
} as const

type Readers<Fields extends Schema.Struct.Fields> = {
  readonly [K in keyof Fields]?: (value: unknown) => Schema.Schema.Type<Fields[K]>
}

/** A `Schema.Class` (or any class of the same construction), as `trustedRow` builds its instances. */
export interface TrustedClass<Fields extends Schema.Struct.Fields, A> {
  readonly fields: Fields
  readonly prototype: A
  new(props: any, options: { readonly disableValidation: true }): A
}

/**
 * Whether an instance of `Class` is no more than its prototype with the props assigned, field by
 * field in declaration order: then `trustedRow` builds it so, without the constructor's work
 * (copying the props, merging constructor defaults, ~2.6 µs per audit record, a tenth of a
 * 500-record page). Probed once per class: a constructor that adds defaults (`TaggedClass`'s
 * `_tag`, `optionalWith(…, { default })`) or properties of its own is not, and keeps `new`.
 */
const isPlainAssignment = <Fields extends Schema.Struct.Fields, A>(Class: TrustedClass<Fields, A>): boolean => {
  const names = Object.keys(Class.fields)
  const probe = Object.fromEntries(names.map((name) => [name, undefined]))
  const instance = new Class(probe, { disableValidation: true }) as object
  const own = Reflect.ownKeys(instance)
  return Object.getPrototypeOf(instance) === Class.prototype &&
    own.length === names.length &&
    own.every((key, index) => key === names[index] && (instance as Record<PropertyKey, unknown>)[key] === undefined)
}

type ReadInto = (row: Record<string, unknown>, into: Record<string, unknown>) => Record<string, unknown>

/**
 * Assigns each named column of a row to `into`, through its reader when it has one. Generated once
 * per row class as one function of straight assignments (`into["id"] = row["id"]; …`): the loop it
 * replaces (`for … of` over [name, reader] pairs, a keyed read and write per column) was 4% of a
 * 500-record audit page. A runtime that forbids `new Function` gets the loop.
 */
const columnsReader = (names: ReadonlyArray<string>, readers: Record<string, (value: unknown) => unknown>): ReadInto => {
  const columns = names.map((name) => [name, readers[name]] as const)
  const used: Array<(value: unknown) => unknown> = []
  const lines = columns.map(([name, reader]) => {
    const key = JSON.stringify(name)
    if (reader === undefined) return `into[${key}] = row[${key}]`
    used.push(reader)
    return `into[${key}] = r[${used.length - 1}](row[${key}])`
  })
  try {
    return new Function("r", `return function readColumns(row, into) {\n${lines.join("\n")}\nreturn into\n}`)(used) as ReadInto
  } catch {
    return (row, into) => {
      for (const [name, reader] of columns) into[name] = reader === undefined ? row[name] : reader(row[name])
      return into
    }
  }
}

/**
 * A row → domain mapper for a domain class: each field is the row's column of the same name,
 * through its reader when it has one, else as the driver returned it (text, numbers). The
 * instance is built without validation (see `TrustedColumn`).
 */
export const trustedRow = <Fields extends Schema.Struct.Fields, A>(
  Class: TrustedClass<Fields, A>,
  readers: Readers<Fields>
) => {
  const read = columnsReader(Object.keys(Class.fields), readers as Record<string, (value: unknown) => unknown>)
  if (isPlainAssignment(Class)) {
    // A constructor of the class's prototype, not `Object.create`: V8 gives objects made by `new`
    // in-object properties, and 22 fields added to an `Object.create` object made the insights'
    // later spread and `JSON.stringify` 3× slower than the class's own instances.
    const Instance = function(this: Record<string, unknown>) {} as unknown as new() => Record<string, unknown>
    Instance.prototype = Class.prototype
    return (row: Record<string, unknown>): A => read(row, new Instance()) as A
  }
  return (row: Record<string, unknown>): A => new Class(read(row, {}), { disableValidation: true })
}
