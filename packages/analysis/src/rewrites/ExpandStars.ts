/**
 * `select_star` fix: replaces each flagged `*` / `t.*` with the columns `context.tables` gives for
 * the tables it covers. Stars the analyzer does not flag (inside EXISTS, over a CTE alone) stay.
 */
import { QueryAnalysis } from "@costline/core"
import { Either } from "effect"
import { type StarOverTable, starsOverTables } from "../rules/SelectStar.js"
import { columnsOf, type FromItem, selectsOf } from "../SqlAst.js"
import { readsAsColumn } from "../SqlParse.js"
import { isKeyword, type Token } from "../SqlTokens.js"
import { refuse, type Rewrite } from "./Rewrite.js"
import { applyEdits } from "./TextEdit.js"

interface StarSpan {
  readonly start: number
  readonly end: number
  /** The qualifier as written (`t`, `"My T"`), for `t.*`. */
  readonly qualifier: string | undefined
  /** The token after the star: EXCLUDE, EXCEPT, ... make it something an explicit list is not. */
  readonly next: Token | undefined
}

const isName = (token: Token | undefined) => token?.kind === "word" || token?.kind === "quoted_identifier"

/** Whether a select-list item can start after this token: SELECT, DISTINCT, ALL, `,` or `TOP n`. */
const opensSelectItem = (tokens: ReadonlyArray<Token>, index: number): boolean => {
  const token = tokens[index]
  if (token?.kind === "symbol") return token.text === ","
  if (token?.kind === "number") return isKeyword(tokens[index - 1], "TOP")
  return isKeyword(token, "SELECT") || isKeyword(token, "DISTINCT") || isKeyword(token, "ALL")
}

/** The `*` and `a.b.*` items of select lists in the text, in order (not `COUNT(*)` or `a * b`). */
const projectionStars = (sql: string, tokens: ReadonlyArray<Token>): ReadonlyArray<StarSpan> =>
  tokens.flatMap((token, index) => {
    if (token.kind !== "symbol" || token.text !== "*") return []
    let first = index
    while (tokens[first - 1]?.text === "." && isName(tokens[first - 2])) first -= 2
    if (!opensSelectItem(tokens, first - 1)) return []
    const qualifier = first < index ? sql.slice(tokens[first]!.start, tokens[index - 1]!.start).trim() : undefined
    return [{ start: tokens[first]!.start, end: token.end, qualifier, next: tokens[index + 1] }]
  })

const STAR_MODIFIERS = new Set(["EXCLUDE", "EXCEPT", "REPLACE", "RENAME", "ILIKE"])

/**
 * A name as SQL: bare when the grammar reads it as a name (so case-insensitive names resolve as
 * usual), else quoted the dialect's way, exactly as given.
 */
export const quoteIdentifier = (name: string, dialect: QueryAnalysis.Dialect): string => {
  if (readsAsColumn(name, dialect)) return name
  const quote = dialect === "bigquery" || dialect === "databricks" ? "`" : "\""
  return `${quote}${name.replaceAll(quote, quote + quote)}${quote}`
}

/** The columns given for a FROM item: by its name as written, its bare table name, or its alias. */
const columnsFor = (tables: QueryAnalysis.TableColumns | undefined, item: FromItem): ReadonlyArray<string> | undefined => {
  const given = Object.entries(tables ?? {})
  const lookup = (name: string | undefined) =>
    name === undefined ? undefined : given.find(([key]) => key.toLowerCase() === name.toLowerCase())?.[1]
  return lookup(item.name) ?? lookup(item.table) ?? lookup(item.alias)
}

/** `quoteIdentifier` once per name: each call parses a query, and the same columns recur per table. */
const quoterFor = (dialect: QueryAnalysis.Dialect) => {
  const quoted = new Map<string, string>()
  return (name: string): string => {
    let text = quoted.get(name)
    if (text === undefined) quoted.set(name, text = quoteIdentifier(name, dialect))
    return text
  }
}

const columnList = (star: StarOverTable, span: StarSpan, tables: QueryAnalysis.TableColumns | undefined, quote: (name: string) => string) =>
  star.covered.flatMap((item) => {
    const qualifier = span.qualifier ?? (star.joined ? quote(item.alias ?? item.table ?? "") : undefined)
    return (columnsFor(tables, item) ?? []).map((column) =>
      qualifier === undefined ? quote(column) : `${qualifier}.${quote(column)}`
    )
  }).join(", ")

/**
 * At least the length of the expanded query (names before quoting, which only adds): known
 * before any name is quoted, so an expansion that could not be analysed again is refused cheaply.
 */
const shortestExpansion = (text: string, targets: ReadonlyArray<{ readonly star: StarOverTable; readonly span: StarSpan }>, tables: QueryAnalysis.TableColumns | undefined) => {
  let length = text.length
  for (const { span, star } of targets) {
    length -= span.end - span.start
    for (const item of star.covered) {
      for (const column of columnsFor(tables, item) ?? []) length += column.length + 2
    }
  }
  return length
}

const mergesJoinColumns = (star: StarOverTable, span: StarSpan) =>
  span.qualifier === undefined && star.covered.some((item) => item.using || (item.join?.includes("NATURAL") ?? false))

export const expandStars: Rewrite = ({ query, statement, tables, tokens }) => {
  const flagged = new Map(starsOverTables(statement).map((star) => [star.column.node, star]))
  if (flagged.size === 0) return refuse("not_applicable", "the query has no SELECT * over a table")
  const allStars = selectsOf(statement).flatMap(({ select }) => columnsOf(select).filter((column) => column.star))
  const spans = projectionStars(query.text, tokens)
  if (spans.length !== allStars.length) return refuse("unsupported", "the stars of this query could not be located in its text")
  const targets = allStars.flatMap((column, index) => {
    const star = flagged.get(column.node)
    return star === undefined ? [] : [{ star, span: spans[index]! }]
  })
  if (targets.some(({ span }) => STAR_MODIFIERS.has(span.next?.text.toUpperCase() ?? ""))) {
    return refuse("unsupported", "a star with EXCLUDE, EXCEPT, REPLACE, RENAME or ILIKE cannot be expanded")
  }
  const missing = new Set(targets.flatMap(({ star }) =>
    star.covered
      .filter((item) => columnsFor(tables, item) === undefined)
      .map((item) => item.alias ?? item.name ?? "a subquery")
  ))
  if (missing.size > 0) {
    return refuse("missing", `give the columns of ${[...missing].join(", ")} in context.tables to expand SELECT *`, "context.tables")
  }
  // Each column is one parse (quoteIdentifier) and its text is checked again by parsing: bounded
  // by the longest query the API takes, not by the 1 MiB body (75,000 columns held the loop 32 s).
  const shortest = shortestExpansion(query.text, targets, tables)
  if (shortest > QueryAnalysis.MAX_QUERY_LENGTH) {
    return refuse(
      "too_long",
      `the expanded query would be longer than ${QueryAnalysis.MAX_QUERY_LENGTH} characters (at least ${shortest}); list fewer columns in context.tables`,
      "context.tables"
    )
  }
  const quote = quoterFor(query.dialect)
  const edits = targets.map(({ span, star }) => ({
    start: span.start,
    end: span.end,
    text: columnList(star, span, tables, quote)
  }))
  const stars = targets.length === 1 ? "SELECT *" : `${targets.length} stars`
  return Either.right({
    sql: applyEdits(query.text, edits),
    explanation: `Replaced ${stars} with the columns listed in context.tables. The warehouse reads only the ` +
      "columns a query names, so removing the ones the result does not need now reduces the data scanned.",
    warnings: [
      "Every column given in context.tables is listed: drop the ones the consumer does not use, " +
      "or the query still reads them.",
      ...(targets.some(({ span, star }) => mergesJoinColumns(star, span))
        ? ["A USING or NATURAL join merged its join columns under SELECT *; the list names them once per table."]
        : [])
    ]
  })
}
