/**
 * Parsing with node-sql-parser: query text → parse trees, or a `ValidationFailed` that points at
 * the line and column where the text stops being SQL. Also the parameterized hash that groups
 * executions of the same query with different literals.
 */
import { Errors } from "@costline/core"
import type { QueryAnalysis } from "@costline/core"
import { Either } from "effect"
import type NodeSqlParser from "node-sql-parser"
import { createHash } from "node:crypto"
import { createRequire } from "node:module"
import { columnRefOf, columnsOf, isNode, type Node } from "./SqlAst.js"
import { tokenize } from "./SqlTokens.js"

export interface ParsedQuery {
  readonly text: string
  readonly dialect: QueryAnalysis.Dialect
  /** One parse tree per statement, in order. */
  readonly statements: ReadonlyArray<Node>
}

/**
 * The node-sql-parser grammars (its `database` option) tried in order for each dialect. The
 * parser has no Databricks grammar: Hive is Spark SQL's ancestor (RLIKE, backticks, date_sub),
 * and the Snowflake grammar covers what Hive's lacks (three-part Unity Catalog names, QUALIFY).
 */
export const parserGrammars: Record<QueryAnalysis.Dialect, readonly [string, ...Array<string>]> = {
  snowflake: ["snowflake"],
  databricks: ["hive", "snowflake"],
  bigquery: ["bigquery"],
  postgres: ["postgresql"]
}


interface ParseFailure {
  readonly offset: number
  readonly line: number
  readonly column: number
  readonly found: string | null
}

// Loaded on first use: its grammars are 2.5 MB of code that a server reaches only when a query
// is analysed (~60 ms and ~11 MB at every start otherwise).
let loadedParser: NodeSqlParser.Parser | undefined
const parser = (): NodeSqlParser.Parser => {
  if (loadedParser === undefined) {
    const { Parser }: typeof NodeSqlParser = createRequire(import.meta.url)("node-sql-parser")
    loadedParser = new Parser()
  }
  return loadedParser
}

/** Loads the parser now rather than at the first parse (an analysis worker does, before its first job). */
export const loadParser = (): void => {
  parser()
}

const parseFailureOf = (error: unknown): ParseFailure | undefined => {
  if (typeof error !== "object" || error === null || !("location" in error)) return undefined
  const start = (error as { location?: { start?: Partial<Omit<ParseFailure, "found">> } }).location?.start
  if (typeof start?.line !== "number" || typeof start.column !== "number" || typeof start.offset !== "number") {
    return undefined
  }
  const found = (error as { found?: unknown }).found
  return {
    offset: start.offset,
    line: start.line,
    column: start.column,
    found: typeof found === "string" ? found : null
  }
}

const describeFailure = (field: string, dialect: QueryAnalysis.Dialect, error: ParseFailure | undefined): string => {
  if (error === undefined) return `${field} does not parse as ${dialect} SQL`
  const what = error.found === null ? "unexpected end of query" : `unexpected ${JSON.stringify(error.found)}`
  return `${field} does not parse as ${dialect} SQL: ${what} at line ${error.line}, column ${error.column}`
}

/** The grammar that read furthest before failing explains the failure best. */
const furthest = (errors: ReadonlyArray<ParseFailure | undefined>): ParseFailure | undefined =>
  errors.reduce<ParseFailure | undefined>(
    (best, error) => (error !== undefined && (best === undefined || error.offset > best.offset) ? error : best),
    undefined
  )

const astify = (text: string, grammar: string): Either.Either<ReadonlyArray<Node>, ParseFailure | undefined> => {
  try {
    const ast: unknown = parser().astify(text, { database: grammar, parseOptions: { includeLocations: true } })
    return Either.right((Array.isArray(ast) ? ast : [ast]).filter(isNode))
  } catch (error) {
    return Either.left(parseFailureOf(error))
  }
}

/**
 * The deepest parse tree the rules walk. They walk it recursively, a few stack frames a level:
 * `SELECT a+a+…+a` with 33,000 terms parses (each `+` nests the tree one level deeper) and then
 * overflowed the stack, a 500. Real queries nest a few dozen levels.
 */
export const MAX_TREE_DEPTH = 1000

/** Whether any of the trees nests deeper than `limit` (walked with a stack of its own, not recursion). */
const deeperThan = (trees: ReadonlyArray<unknown>, limit: number): boolean => {
  const pending: Array<{ readonly value: unknown; readonly depth: number }> = trees.map((value) => ({ value, depth: 1 }))
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    if (next.depth > limit) return true
    const { value, depth } = next
    if (Array.isArray(value)) for (const item of value) pending.push({ value: item, depth: depth + 1 })
    else if (isNode(value)) for (const key in value) if (key !== "loc") pending.push({ value: value[key], depth: depth + 1 })
  }
  return false
}

/**
 * The most JOINs a query may have to be parsed. node-sql-parser runs on the event loop, and its
 * time grows with the square of the joins (`JOIN t ON …`: 800 took 0.7 s, 2,500 took 9 s, holding
 * every other request meanwhile); 300 take ~0.1 s. Queries with that many are not written by hand.
 */
export const MAX_JOINS = 300

const joinsIn = (text: string, dialect: QueryAnalysis.Dialect): number => {
  let joins = 0
  for (const token of tokenize(text, dialect)) if (token.kind === "word" && token.text.toUpperCase() === "JOIN") joins++
  return joins
}

/**
 * Parses `text` with the dialect's grammars in turn; the first that accepts it wins. `field` names
 * the request field in the error (`query_text` for callers, something else for model output).
 */
export const parse = (
  text: string,
  dialect: QueryAnalysis.Dialect,
  field = "query_text"
): Either.Either<ParsedQuery, Errors.ValidationFailed> => {
  const joins = joinsIn(text, dialect)
  if (joins > MAX_JOINS) {
    return Either.left(Errors.ValidationFailed.single(
      field,
      "too_complex",
      `${field} has ${joins} JOINs; at most ${MAX_JOINS} can be analysed`
    ))
  }
  const failures: Array<ParseFailure | undefined> = []
  for (const grammar of parserGrammars[dialect]) {
    const result = astify(text, grammar)
    if (Either.isLeft(result)) {
      failures.push(result.left)
      continue
    }
    const statements = result.right
    if (statements.length === 0) {
      return Either.left(Errors.ValidationFailed.single(field, "empty", `${field} contains no SQL statement`))
    }
    if (deeperThan(statements, MAX_TREE_DEPTH)) {
      return Either.left(Errors.ValidationFailed.single(
        field,
        "too_deep",
        `${field} nests more than ${MAX_TREE_DEPTH} levels deep (a chain of thousands of operators, or of parentheses); it cannot be analysed`
      ))
    }
    return Either.right({ text, dialect, statements })
  }
  const message = describeFailure(field, dialect, furthest(failures))
  return Either.left(Errors.ValidationFailed.single(field, "syntax_error", message))
}

const SIMPLE_IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_$]*$/

/**
 * Whether `name`, unquoted, reads as a column of that name in every grammar of the dialect: not a
 * keyword, literal or function, whichever grammar ends up parsing the query.
 */
export const readsAsColumn = (name: string, dialect: QueryAnalysis.Dialect): boolean =>
  SIMPLE_IDENTIFIER.test(name) &&
  parserGrammars[dialect].every((grammar) =>
    Either.match(astify(`SELECT ${name} FROM t`, grammar), {
      onLeft: () => false,
      onRight: ([statement]) => statement !== undefined && columnRefOf(columnsOf(statement)[0]?.expr)?.column === name
    })
  )

/**
 * A hash that is equal for two queries differing only in literals, white space, comments and the
 * case of keywords and unquoted names: the grouping Snowflake calls QUERY_PARAMETERIZED_HASH.
 */
export const parameterizedHash = (text: string, dialect: QueryAnalysis.Dialect): string => {
  const normalized = tokenize(text, dialect)
    .map((token) => {
      switch (token.kind) {
        case "string":
        case "number":
          return "?"
        case "word":
          return token.text.toUpperCase()
        default:
          return token.text
      }
    })
    .filter((text, index, all) => !(text === ";" && index === all.length - 1))
    .join(" ")
  return createHash("sha256").update(normalized).digest("hex")
}
