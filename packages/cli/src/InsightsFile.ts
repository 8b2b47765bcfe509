/**
 * `costline insights import`: a JSON Lines file of insights, one `InsightUpsert` object per line
 * (blank lines are ignored). The file is streamed twice, never held in memory: a first pass checks
 * every line and writes nothing; only a file without a bad line is read again and imported, all
 * or nothing: a bad line means nothing is imported.
 */
import { InsightImport, InsightUpsert, type OrganizationId } from "@costline/core"
import { Array as Arr, Effect, Either, Option, ParseResult, Schema, Stream } from "effect"

export interface BadLine {
  /** 1-based. */
  readonly line: number
  readonly problem: string
}

/** A non-blank line of the file, parsed. */
export interface ParsedLine {
  /** 1-based, counting blank lines, as an editor numbers them. */
  readonly line: number
  readonly upsert: Either.Either<InsightUpsert, string>
}

const decodeUpsert = Schema.decodeUnknownEither(InsightUpsert)

/** The first problem of a line, at its field: `title: must not be empty`. */
const describeParseError = (error: ParseResult.ParseError): string => {
  const [first] = ParseResult.ArrayFormatter.formatErrorSync(error)
  if (first === undefined) return error.message
  return first.path.length === 0 ? first.message : `${first.path.join(".")}: ${first.message}`
}

export const parseLine = (text: string): Either.Either<InsightUpsert, string> => {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    return Either.left("not valid JSON")
  }
  return Either.mapLeft(decodeUpsert(value), describeParseError)
}

const parseNumbered = (content: string, index: number): Option.Option<ParsedLine> => {
  const text = index === 0 ? content.replace(/^\uFEFF/, "") : content
  return text.trim().length === 0 ? Option.none() : Option.some({ line: index + 1, upsert: parseLine(text) })
}

/** The file's text, in chunks of any size → its non-blank lines, parsed one at a time. */
export const parsedLines = <E, R>(text: Stream.Stream<string, E, R>): Stream.Stream<ParsedLine, E, R> =>
  text.pipe(Stream.splitLines, Stream.zipWithIndex, Stream.filterMap(([content, index]) => parseNumbered(content, index)))

/** Every insight of a text, or every bad line in it (for small texts and tests). */
export const parseInsightLines = (
  text: string
): Either.Either<ReadonlyArray<InsightUpsert>, Arr.NonEmptyReadonlyArray<BadLine>> => {
  const upserts: Array<InsightUpsert> = []
  const bad: Array<BadLine> = []
  text.split(/\r?\n/).forEach((content, index) =>
    Option.map(parseNumbered(content, index), ({ line, upsert }) =>
      Either.match(upsert, { onLeft: (problem) => bad.push({ line, problem }), onRight: (ok) => upserts.push(ok) })))
  return Arr.isNonEmptyReadonlyArray(bad) ? Either.left(bad) : Either.right(upserts)
}

const LISTED_LINES = 10

/** One line for stderr: the first bad line in full, the others by number; `total` counts them all. */
export const describeBadLines = ([first, ...rest]: Arr.NonEmptyReadonlyArray<BadLine>, total = rest.length + 1): string => {
  const more = total - 1
  const others = more === 0
    ? ""
    : ` (and ${more} more bad line${more === 1 ? "" : "s"}: ${
      rest.slice(0, LISTED_LINES).map((bad) => bad.line).join(", ")
    }${more > LISTED_LINES ? ", ..." : ""})`
  return `line ${first.line}: ${first.problem}${others}; nothing was imported`
}

export interface Checked {
  /** Insights in the file. */
  readonly lines: number
  /** The first bad lines (enough to describe them) and how many there are; none when the file is good. */
  readonly bad: Option.Option<{ readonly listed: Arr.NonEmptyReadonlyArray<BadLine>; readonly total: number }>
}

/** The first pass: every line checked, in constant memory. */
export const checkLines = <E, R>(lines: Stream.Stream<ParsedLine, E, R>): Effect.Effect<Checked, E, R> =>
  Effect.suspend(() => {
    let count = 0
    let total = 0
    const listed: Array<BadLine> = []
    return Stream.runForEachChunk(lines, (chunk) =>
      Effect.sync(() => {
        for (const { line, upsert } of chunk) {
          count++
          if (Either.isRight(upsert)) continue
          total++
          if (listed.length <= LISTED_LINES) listed.push({ line, problem: upsert.left })
        }
      })).pipe(
        Effect.map(() => ({
          lines: count,
          bad: Arr.isNonEmptyReadonlyArray(listed) ? Option.some({ listed, total }) : Option.none()
        }))
      )
  })

/**
 * The second pass: upserts every insight of a checked file as the system, staged in short
 * transactions and published at once (core's InsightImport). `expected` is the number of
 * insights the first pass counted.
 */
export const importInsights = <E, R>(
  organizationId: OrganizationId,
  lines: Stream.Stream<ParsedLine, E, R>,
  expected: number
) =>
  Effect.flatMap(InsightImport, (importer) =>
    importer.run(organizationId, Stream.map(lines, (line) => line.upsert), expected))
