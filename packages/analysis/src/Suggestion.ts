/**
 * A proposed rewrite and the checks every proposal must pass, whoever made it: it parses in the
 * query's dialect and differs from the original in more than white space. A changed set of tables
 * is allowed but called out, since it is the likeliest sign of a rewrite that changes the result.
 */
import { Either } from "effect"
import { baseTablesOf } from "./SqlAst.js"
import { parse, type ParsedQuery } from "./SqlParse.js"

export interface Suggestion {
  readonly sql: string
  readonly explanation: string
  readonly warnings: ReadonlyArray<string>
}

const normalizeSpace = (sql: string) => sql.replace(/\s+/g, " ").trim()

const tablesOf = (query: ParsedQuery) =>
  new Set(query.statements.flatMap(baseTablesOf).map((name) => name.toLowerCase()))

/**
 * Checks a suggestion against the original query: Right with the warnings to add, or Left with
 * the reason it is unusable.
 */
export const checkSuggestion = (original: ParsedQuery, sql: string): Either.Either<ReadonlyArray<string>, string> => {
  const parsed = parse(sql, original.dialect, "suggested query")
  if (Either.isLeft(parsed)) return Either.left(parsed.left.message)
  if (normalizeSpace(sql) === normalizeSpace(original.text)) {
    return Either.left("the suggested query is the original unchanged")
  }
  const before = tablesOf(original)
  const after = tablesOf(parsed.right)
  const added = [...after].filter((table) => !before.has(table))
  const dropped = [...before].filter((table) => !after.has(table))
  return Either.right([
    ...(added.length > 0 ? [`The suggestion reads tables the original does not: ${added.join(", ")}.`] : []),
    ...(dropped.length > 0 ? [`The suggestion no longer reads: ${dropped.join(", ")}.`] : [])
  ])
}
