/**
 * `costline insights import`: a JSON Lines file of insights, one `InsightUpsert` object per line
 * (blank lines are ignored). The file is streamed once, never held in memory: its lines are
 * decoded and staged as they are read; a bad line stops the staging and discards what was staged,
 * and the rest is only read, to name every bad line. All or nothing: a bad line means nothing is
 * imported.
 */
import { Errors, Insight, InsightImport } from "@costline/core"
import type { Ids } from "@costline/core"
import { Array as Arr, Data, Effect, Either, Option, ParseResult, Schema, Stream } from "effect"

export interface BadLine {
  /** 1-based. */
  readonly line: number
  readonly problem: string
}

/** A non-blank line of the file, parsed. */
export interface ParsedLine {
  /** 1-based, counting blank lines, as an editor numbers them. */
  readonly line: number
  readonly upsert: Either.Either<Insight.InsightUpsert, string>
}

const decodeUpsert = Schema.decodeUnknownEither(Insight.InsightUpsert)

/** The first problem of a line, at its field: `title: must not be empty`. */
const describeParseError = (error: ParseResult.ParseError): string => {
  const [first] = ParseResult.ArrayFormatter.formatErrorSync(error)
  if (first === undefined) return error.message
  return first.path.length === 0 ? first.message : `${first.path.join(".")}: ${first.message}`
}

export const parseLine = (text: string): Either.Either<Insight.InsightUpsert, string> => {
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
): Either.Either<ReadonlyArray<Insight.InsightUpsert>, Arr.NonEmptyReadonlyArray<BadLine>> => {
  const upserts: Array<Insight.InsightUpsert> = []
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

/** The bad lines of a file, as it is read: the first ones (enough to describe them) and how many. */
const badLineTally = () => {
  const listed: Array<BadLine> = []
  let total = 0
  return {
    add: ({ line, upsert }: ParsedLine) => {
      if (Either.isRight(upsert)) return
      total++
      if (listed.length <= LISTED_LINES) listed.push({ line, problem: upsert.left })
    },
    found: (): Option.Option<BadLines> =>
      Arr.isNonEmptyReadonlyArray(listed) ? Option.some(new BadLines({ listed, total })) : Option.none()
  }
}

/** The file has bad lines (the first ones, and how many): nothing was imported. */
export class BadLines extends Data.TaggedError("BadLines")<{
  readonly listed: Arr.NonEmptyReadonlyArray<BadLine>
  readonly total: number
}> {}

export interface Imported {
  /** Insights in the file. */
  readonly lines: number
  readonly summary: InsightImport.InsightImportSummary
}

/**
 * The one pass: upserts every insight of the file as the system, staged in short transactions
 * as the lines are read and published at once (core's InsightImport), or fails with every bad
 * line, having imported nothing.
 */
export const importInsights = <E, R>(organizationId: Ids.OrganizationId, lines: Stream.Stream<ParsedLine, E, R>) =>
  Effect.gen(function*() {
    const importer = yield* InsightImport.InsightImport
    const bad = badLineTally()
    let count = 0
    const upserts = Stream.map(lines, (line) => {
      count++
      bad.add(line)
      return line.upsert
    })
    // The import fails with ValidationFailed only after reading a bad line, and then it has read
    // the whole file: the tally is complete.
    const summary = yield* importer.run(organizationId, upserts).pipe(
      Effect.catchIf(
        (failure) => failure instanceof Errors.ValidationFailed,
        (failure) => Effect.fail(Option.getOrElse(bad.found(), () => failure))
      )
    )
    return { lines: count, summary } satisfies Imported
  })
