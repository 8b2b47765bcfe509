/**
 * Usage files, JSON Lines or CSV with a header, read as a stream of rows: the text arrives in
 * chunks and each row is decoded on its own, so a file of any size is read in constant memory.
 *
 * CSV cells are text; a cell becomes the value its column needs (credits and the other numbers,
 * `is_serverless` as true/false, `tags` and `accessed_databases` as JSON), and an empty cell means
 * "no value". Row problems are carried in the rows, so that a reader can report every bad line;
 * only a CSV header that cannot be used fails the stream.
 */
import { Chunk, Effect, Either, Option, Schema, Stream } from "effect"
import { ValidationFailed } from "../shared/Errors.js"
import type { UsageRecord } from "./Domain.js"
import { makeCsvReader, type CsvRecord } from "./internal/Csv.js"
import { locateSyntaxError } from "./internal/JsonSyntax.js"
import { type Column, COLUMNS, decodeRow, REQUIRED_COLUMNS } from "./internal/UsageRows.js"

/**
 * @since 0.1.0
 * @category schemas
 */
export const UsageFileFormat = Schema.Literal("jsonl", "csv")
/**
 * @since 0.1.0
 * @category models
 */
export type UsageFileFormat = typeof UsageFileFormat.Type

/**
 * `.jsonl`/`.ndjson` are JSON Lines, `.csv` is CSV; none for anything else.
 * @since 0.1.0
 * @category utils
 */
export const formatOfPath = (path: string): Option.Option<UsageFileFormat> => {
  const extension = /\.([^./\\]+)$/.exec(path)?.[1]?.toLowerCase()
  if (extension === "jsonl" || extension === "ndjson") return Option.some("jsonl")
  return extension === "csv" ? Option.some("csv") : Option.none()
}

/**
 * @since 0.1.0
 * @category models
 */
export interface ParsedRow {
  /** 1-based line of the file where the row starts. */
  readonly line: number
  /** The record, or what is wrong with the row. */
  readonly record: Either.Either<UsageRecord, string>
}

// ---------------------------------------------------------------------------------------------
// JSON Lines

const parseJsonRow = (text: string): Either.Either<UsageRecord, string> => {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    const at = locateSyntaxError(text)
    return Either.left(at === undefined ? "not valid JSON" : `not valid JSON (column ${at.column})`)
  }
  return decodeRow(value)
}

// Both readers work a chunk of lines or records at a time: per-element stream steps would cost
// more than the parsing itself over a million rows.

const jsonLines = <E, R>(text: Stream.Stream<string, E, R>): Stream.Stream<ParsedRow, E, R> =>
  Stream.suspend(() => {
    let line = 0
    return Stream.splitLines(text).pipe(
      Stream.mapChunks(Chunk.filterMap((content) => {
        line++
        return content.trim().length === 0 ? Option.none() : Option.some({ line, record: parseJsonRow(content) })
      }))
    )
  })

// ---------------------------------------------------------------------------------------------
// CSV

const NUMBER_COLUMNS: ReadonlySet<Column> = new Set(["credits", "execution_time_ms", "bytes_scanned"])
const BOOLEAN_COLUMNS: ReadonlySet<Column> = new Set(["is_serverless"])
const JSON_COLUMNS: ReadonlySet<Column> = new Set(["accessed_databases", "tags"])
const DECIMAL = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/
const BYTE_ORDER_MARK = /^\uFEFF/

/** A cell that does not convert stays text, so the row's decoding names the column and the value. */
const cellValue = (column: Column, cell: string): unknown => {
  if (NUMBER_COLUMNS.has(column)) return DECIMAL.test(cell) ? Number(cell) : cell
  if (BOOLEAN_COLUMNS.has(column)) {
    const flag = cell.toLowerCase()
    return flag === "true" ? true : flag === "false" ? false : cell
  }
  if (JSON_COLUMNS.has(column)) {
    try {
      return JSON.parse(cell)
    } catch {
      return cell
    }
  }
  return cell
}

const isColumn = (name: string): name is Column => (COLUMNS as ReadonlyArray<string>).includes(name)

const headerProblem = (message: string) => ValidationFailed.single("line 1", "invalid_header", `line 1: ${message}`)

/**
 * @since 0.1.0
 * @category utils
 */
export const readHeader = (record: CsvRecord): Either.Either<ReadonlyArray<Column>, ValidationFailed> => {
  if (record.problem !== undefined) return Either.left(headerProblem(record.problem))
  const names = record.fields.map((name, i) => (i === 0 ? name.replace(BYTE_ORDER_MARK, "") : name).trim())
  const unknown = names.filter((name) => !isColumn(name))
  if (unknown.length > 0) {
    return Either.left(headerProblem(`unknown column ${unknown.map((n) => `'${n}'`).join(", ")}; the columns are ${COLUMNS.join(", ")}`))
  }
  const repeated = names.filter((name, i) => names.indexOf(name) !== i)
  if (repeated.length > 0) return Either.left(headerProblem(`column '${repeated[0]}' appears twice`))
  const missing = REQUIRED_COLUMNS.filter((column) => !names.includes(column))
  if (missing.length > 0) return Either.left(headerProblem(`the header needs the columns ${missing.join(", ")}`))
  return Either.right(names as ReadonlyArray<Column>)
}

/**
 * @since 0.1.0
 * @category utils
 */
export const csvRow = (header: ReadonlyArray<Column>, record: CsvRecord): ParsedRow => {
  if (record.problem !== undefined) return { line: record.line, record: Either.left(record.problem) }
  if (record.fields.length !== header.length) {
    return {
      line: record.line,
      record: Either.left(`${record.fields.length} fields where the header has ${header.length}`)
    }
  }
  const row: Record<string, unknown> = {}
  header.forEach((column, i) => {
    const cell = record.fields[i]!
    if (cell !== "") row[column] = cellValue(column, cell)
  })
  return { line: record.line, record: decodeRow(row) }
}

const csv = <E, R>(text: Stream.Stream<string, E, R>): Stream.Stream<ParsedRow, E | ValidationFailed, R> =>
  Stream.suspend(() => {
    const reader = makeCsvReader()
    let header: ReadonlyArray<Column> | undefined
    const records = text.pipe(
      Stream.mapConcat(reader.push),
      Stream.concat(Stream.suspend(() => Stream.fromIterable(reader.end())))
    )
    const rowsOf = (chunk: Chunk.Chunk<CsvRecord>): Either.Either<Chunk.Chunk<ParsedRow>, ValidationFailed> => {
      const rows: Array<ParsedRow> = []
      for (const record of chunk) {
        if (header !== undefined) {
          rows.push(csvRow(header, record))
          continue
        }
        const read = readHeader(record)
        if (Either.isLeft(read)) return Either.left(read.left)
        header = read.right
      }
      return Either.right(Chunk.unsafeFromArray(rows))
    }
    return Stream.mapChunksEffect(records, (chunk) => Effect.suspend(() => rowsOf(chunk)))
  })

/**
 * The rows of a usage file, from its text in chunks of any size.
 * @since 0.1.0
 * @category utils
 */
export const parseRows = <E, R>(
  format: UsageFileFormat,
  text: Stream.Stream<string, E, R>
): Stream.Stream<ParsedRow, E | ValidationFailed, R> => (format === "csv" ? csv(text) : jsonLines(text))
