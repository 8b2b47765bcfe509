/**
 * A proposed rewrite and the checks every proposal must pass, whoever made it: it parses in the
 * query's dialect and differs from the original in more than white space. A changed set of tables
 * is allowed but called out, since it is the likeliest sign of a rewrite that changes the result.
 */
import type { QueryAnalysis } from "@costline/core"
import { Either } from "effect"
import { baseTablesOf } from "./SqlAst.js"
import { parse, type ParsedQuery } from "./SqlParse.js"

export interface Suggestion {
  readonly sql: string
  readonly explanation: string
  readonly warnings: ReadonlyArray<string>
}

const normalizeSpace = (sql: string) => sql.replace(/\s+/g, " ").trim()

/** The base tables a query reads, lower-cased: what a suggestion is compared on. */
export const tablesOf = (query: ParsedQuery): ReadonlyArray<string> =>
  [...new Set(query.statements.flatMap(baseTablesOf).map((name) => name.toLowerCase()))]

/** What a suggestion is checked against: the original's text, dialect and `tablesOf`. */
export interface Original {
  readonly text: string
  readonly dialect: QueryAnalysis.Dialect
  readonly tables: ReadonlyArray<string>
}

/**
 * Checks a suggestion against the original query: Right with the warnings to add, or Left with
 * the reason it is unusable.
 */
export const checkSuggestion = (original: ParsedQuery, sql: string): Either.Either<ReadonlyArray<string>, string> =>
  checkAgainst({ text: original.text, dialect: original.dialect, tables: tablesOf(original) }, sql)

/** `checkSuggestion` given the original's tables, so that it need not be parsed again. */
export const checkAgainst = (original: Original, sql: string): Either.Either<ReadonlyArray<string>, string> => {
  const parsed = parse(sql, original.dialect, "suggested query")
  if (Either.isLeft(parsed)) return Either.left(parsed.left.message)
  if (normalizeSpace(sql) === normalizeSpace(original.text)) {
    return Either.left("the suggested query is the original unchanged")
  }
  const before = new Set(original.tables)
  const after = tablesOf(parsed.right)
  const afterSet = new Set(after)
  const added = after.filter((table) => !before.has(table))
  const dropped = original.tables.filter((table) => !afterSet.has(table))
  return Either.right([
    ...(added.length > 0 ? [`The suggestion reads tables the original does not: ${added.join(", ")}.`] : []),
    ...(dropped.length > 0 ? [`The suggestion no longer reads: ${dropped.join(", ")}.`] : [])
  ])
}
