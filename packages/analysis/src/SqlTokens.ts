/**
 * A small SQL lexer. The parse tree says *what* a query contains but not always *where* (only some
 * grammars record locations), and text edits must keep the author's formatting, comments and
 * quoting, so rewrites locate their targets in this token stream. Comments and white space are
 * skipped; offsets point into the original text.
 */
import type { QueryAnalysis } from "@costline/core"

export type TokenKind = "word" | "quoted_identifier" | "string" | "number" | "symbol"

export interface Token {
  readonly kind: TokenKind
  readonly text: string
  /** Offset of the first character. */
  readonly start: number
  /** Offset just past the last character. */
  readonly end: number
}

interface Lexicon {
  /** `"..."` is a string literal (BigQuery, Spark) rather than a quoted identifier. */
  readonly doubleQuotedStrings: boolean
  /** `\'` escapes a quote inside a string. */
  readonly backslashEscapes: boolean
  readonly lineCommentStarts: ReadonlyArray<string>
  /** `$$...$$` / `$tag$...$tag$` strings. */
  readonly dollarQuotes: boolean
}

const lexicons: Record<QueryAnalysis.Dialect, Lexicon> = {
  snowflake: {
    doubleQuotedStrings: false,
    backslashEscapes: true,
    lineCommentStarts: ["--", "//"],
    dollarQuotes: true
  },
  databricks: { doubleQuotedStrings: true, backslashEscapes: true, lineCommentStarts: ["--"], dollarQuotes: false },
  bigquery: { doubleQuotedStrings: true, backslashEscapes: true, lineCommentStarts: ["--", "#"], dollarQuotes: false },
  postgres: { doubleQuotedStrings: false, backslashEscapes: false, lineCommentStarts: ["--"], dollarQuotes: true }
}

const WORD_START = /[\p{L}_]/u
const WORD_PART = /[\p{L}\p{N}_$]/u
const DIGIT = /[0-9]/
const NUMBER = /^(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?/
const DOLLAR_TAG = /^\$(?:[A-Za-z_][A-Za-z0-9_]*)?\$/

/** End offset of a quoted run opened at `start` by `quote`; doubled quotes (and maybe `\`) escape. */
const quotedEnd = (sql: string, start: number, quote: string, backslash: boolean): number => {
  let i = start + 1
  while (i < sql.length) {
    const c = sql[i]
    if (backslash && c === "\\") i += 2
    else if (c === quote && sql[i + 1] === quote) i += 2
    else if (c === quote) return i + 1
    else i += 1
  }
  return sql.length
}

export const tokenize = (sql: string, dialect: QueryAnalysis.Dialect): ReadonlyArray<Token> => {
  const lexicon = lexicons[dialect]
  const tokens: Array<Token> = []
  const push = (kind: TokenKind, start: number, end: number) =>
    tokens.push({ kind, text: sql.slice(start, end), start, end })
  let i = 0
  while (i < sql.length) {
    const c = sql[i]!
    const rest = sql.slice(i, i + 2)
    if (/\s/.test(c)) {
      i += 1
    } else if (lexicon.lineCommentStarts.some((start) => sql.startsWith(start, i))) {
      const newline = sql.indexOf("\n", i)
      i = newline === -1 ? sql.length : newline + 1
    } else if (rest === "/*") {
      const close = sql.indexOf("*/", i + 2)
      i = close === -1 ? sql.length : close + 2
    } else if (c === "'") {
      const end = quotedEnd(sql, i, "'", lexicon.backslashEscapes)
      push("string", i, end)
      i = end
    } else if (c === "\"") {
      const end = quotedEnd(sql, i, "\"", lexicon.doubleQuotedStrings && lexicon.backslashEscapes)
      push(lexicon.doubleQuotedStrings ? "string" : "quoted_identifier", i, end)
      i = end
    } else if (c === "`") {
      const end = quotedEnd(sql, i, "`", false)
      push("quoted_identifier", i, end)
      i = end
    } else if (c === "$" && lexicon.dollarQuotes && DOLLAR_TAG.test(sql.slice(i, i + 64))) {
      const tag = DOLLAR_TAG.exec(sql.slice(i, i + 64))![0]
      const close = sql.indexOf(tag, i + tag.length)
      const end = close === -1 ? sql.length : close + tag.length
      push("string", i, end)
      i = end
    } else if (DIGIT.test(c) || (c === "." && DIGIT.test(sql[i + 1] ?? ""))) {
      const end = i + NUMBER.exec(sql.slice(i))![0].length
      push("number", i, end)
      i = end
    } else if (WORD_START.test(c)) {
      let end = i + 1
      while (end < sql.length && WORD_PART.test(sql[end]!)) end += 1
      push("word", i, end)
      i = end
    } else {
      push("symbol", i, i + 1)
      i += 1
    }
  }
  return tokens
}

/** True when the token is the given keyword (case-insensitive). */
export const isKeyword = (token: Token | undefined, keyword: string): boolean =>
  token !== undefined && token.kind === "word" && token.text.toUpperCase() === keyword
