/**
 * `costline insights import`: a JSON Lines file of insights, one `InsightUpsert` object per line
 * (blank lines are ignored). The whole file is checked before anything is written, and then
 * written in one transaction: a bad line means nothing is imported.
 */
import { Actor, Insights, InsightUpsert, Organizations, type OrganizationId, Transactor, type UpsertResult } from "@costline/core"
import { Array as Arr, Effect, Either, ParseResult, Schema } from "effect"

export interface BadLine {
  /** 1-based. */
  readonly line: number
  readonly problem: string
}

const decodeUpsert = Schema.decodeUnknownEither(InsightUpsert)

/** The first problem of a line, at its field: `title: must not be empty`. */
const describeParseError = (error: ParseResult.ParseError): string => {
  const [first] = ParseResult.ArrayFormatter.formatErrorSync(error)
  if (first === undefined) return error.message
  return first.path.length === 0 ? first.message : `${first.path.join(".")}: ${first.message}`
}

const parseLine = (text: string): Either.Either<InsightUpsert, string> => {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    return Either.left("not valid JSON")
  }
  return Either.mapLeft(decodeUpsert(value), describeParseError)
}

/** Every insight of the file, or every bad line in it. */
export const parseInsightLines = (
  text: string
): Either.Either<ReadonlyArray<InsightUpsert>, Arr.NonEmptyReadonlyArray<BadLine>> => {
  const upserts: Array<InsightUpsert> = []
  const bad: Array<BadLine> = []
  text.replace(/^\uFEFF/, "").split(/\r?\n/).forEach((content, index) => {
    if (content.trim().length === 0) return
    Either.match(parseLine(content), {
      onLeft: (problem) => bad.push({ line: index + 1, problem }),
      onRight: (upsert) => upserts.push(upsert)
    })
  })
  return Arr.isNonEmptyReadonlyArray(bad) ? Either.left(bad) : Either.right(upserts)
}

const LISTED_LINES = 10

/** One line for stderr: the first bad line in full, the others by number. */
export const describeBadLines = ([first, ...rest]: Arr.NonEmptyReadonlyArray<BadLine>): string => {
  const others = rest.length === 0
    ? ""
    : ` (and ${rest.length} more bad line${rest.length === 1 ? "" : "s"}: ${
      rest.slice(0, LISTED_LINES).map((bad) => bad.line).join(", ")
    }${rest.length > LISTED_LINES ? ", ..." : ""})`
  return `line ${first.line}: ${first.problem}${others}; nothing was imported`
}

export interface ImportSummary {
  readonly created: number
  readonly updated: number
  readonly unchanged: number
}

/** Upserts every insight in one transaction, as the system. */
export const importInsights = (organizationId: OrganizationId, upserts: ReadonlyArray<InsightUpsert>) =>
  Effect.gen(function*() {
    const insights = yield* Insights
    yield* (yield* Organizations).get(organizationId)
    const actor = Actor.system()
    const results = yield* (yield* Transactor).withTransaction(
      Effect.forEach(upserts, (upsert) => insights.upsert(actor, organizationId, upsert))
    )
    const count = (tag: UpsertResult["_tag"]) => results.filter((result) => result._tag === tag).length
    return { created: count("Created"), updated: count("Updated"), unchanged: count("Unchanged") } satisfies ImportSummary
  })
