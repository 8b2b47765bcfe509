/**
 * An export file, CSV with a header row or JSON Lines, read as a stream of typed rows in constant
 * memory. CSV goes through the project's incremental RFC 4180 reader (usage/Csv: quoted fields
 * may hold commas, line breaks and doubled quotes, which query text does); header names are
 * compared in upper case and columns the views add beyond ours are ignored. A header missing a
 * column we need fails the stream with the column's name; every other problem is carried in its
 * row, so a reader can report every bad line.
 */
import { Chunk, Effect, Either, Option, Stream } from "effect"
import { ValidationFailed } from "../shared/Errors.js"
import { type CsvRecord, makeCsvReader } from "../usage/internal/Csv.js"
import { locateSyntaxError } from "../usage/internal/JsonSyntax.js"
import type { UsageFileFormat } from "../usage/UsageFile.js"
import { csvRowDecoder, decodeExportRow, type ExportKind, headerColumns, type RowOf, VIEW_NAMES } from "./Exports.js"

/**
 * @since 0.1.0
 * @category models
 */
export interface ExportRow<A> {
  /** 1-based line of the file where the row starts. */
  readonly line: number
  readonly row: Either.Either<A, string>
}

const BYTE_ORDER_MARK = /^\uFEFF/

const jsonRow = <K extends ExportKind>(kind: K, content: string): Either.Either<RowOf<K>, string> => {
  let value: unknown
  try {
    value = JSON.parse(content)
  } catch {
    const at = locateSyntaxError(content)
    return Either.left(at === undefined ? "not valid JSON" : `not valid JSON (column ${at.column})`)
  }
  return decodeExportRow(kind, value)
}

const jsonLines = <K extends ExportKind, E, R>(kind: K, text: Stream.Stream<string, E, R>) =>
  Stream.suspend(() => {
    let line = 0
    return Stream.splitLines(text).pipe(
      Stream.mapChunks(Chunk.filterMap((content) => {
        line++
        const trimmed = line === 1 ? content.replace(BYTE_ORDER_MARK, "") : content
        return trimmed.trim().length === 0 ? Option.none() : Option.some({ line, row: jsonRow(kind, trimmed) })
      }))
    )
  })

const headerProblem = (kind: ExportKind, message: string) =>
  ValidationFailed.single(`${kind} line 1`, "invalid_header", `${VIEW_NAMES[kind]} line 1: ${message}`)

/**
 * The header's names in upper case, or the problem: a missing needed column is named.
 * @since 0.1.0
 * @category utils
 */
export const readHeader = (kind: ExportKind, record: CsvRecord): Either.Either<ReadonlyArray<string>, ValidationFailed> => {
  if (record.problem !== undefined) return Either.left(headerProblem(kind, record.problem))
  const names = record.fields.map((name, i) => (i === 0 ? name.replace(BYTE_ORDER_MARK, "") : name).trim().toUpperCase())
  const missing = headerColumns(kind).filter((column) => !names.includes(column))
  if (missing.length > 0) {
    return Either.left(headerProblem(kind, `the header lacks the column${missing.length > 1 ? "s" : ""} ${missing.join(", ")}`))
  }
  return Either.right(names)
}

const csvRow = <K extends ExportKind>(
  header: ReadonlyArray<string>,
  decode: (fields: ReadonlyArray<string>) => Either.Either<RowOf<K>, string>,
  record: CsvRecord
): ExportRow<RowOf<K>> => {
  if (record.problem !== undefined) return { line: record.line, row: Either.left(record.problem) }
  if (record.fields.length !== header.length) {
    return { line: record.line, row: Either.left(`${record.fields.length} fields where the header has ${header.length}`) }
  }
  return { line: record.line, row: decode(record.fields) }
}

const csv = <K extends ExportKind, E, R>(kind: K, text: Stream.Stream<string, E, R>) =>
  Stream.suspend(() => {
    const reader = makeCsvReader()
    let header: ReadonlyArray<string> | undefined
    let decode: ((fields: ReadonlyArray<string>) => Either.Either<RowOf<K>, string>) | undefined
    const records = text.pipe(
      Stream.mapConcat(reader.push),
      Stream.concat(Stream.suspend(() => Stream.fromIterable(reader.end())))
    )
    const rowsOf = (chunk: Chunk.Chunk<CsvRecord>): Either.Either<Chunk.Chunk<ExportRow<RowOf<K>>>, ValidationFailed> => {
      const rows: Array<ExportRow<RowOf<K>>> = []
      for (const record of chunk) {
        if (header !== undefined) {
          rows.push(csvRow(header, decode!, record))
          continue
        }
        const read = readHeader(kind, record)
        if (Either.isLeft(read)) return Either.left(read.left)
        header = read.right
        decode = csvRowDecoder(kind, header)
      }
      return Either.right(Chunk.unsafeFromArray(rows))
    }
    return Stream.mapChunksEffect(records, (chunk) => Effect.suspend(() => rowsOf(chunk)))
  })

/**
 * The rows of an export file, from its text in chunks of any size.
 * @since 0.1.0
 * @category utils
 */
export const readExport = <K extends ExportKind, E, R>(
  kind: K,
  format: UsageFileFormat,
  text: Stream.Stream<string, E, R>
): Stream.Stream<ExportRow<RowOf<K>>, E | ValidationFailed, R> =>
  format === "csv" ? csv(kind, text) : jsonLines(kind, text)
