/** Shared test helpers: parse a query or fail the test, and run one rule over it. */
import { Either } from "effect"
import type { QueryAnalysis } from "@costline/core"
import type { Finding, Rule } from "../src/rules/index.js"
import { parse, type ParsedQuery } from "../src/SqlParse.js"

export const parsed = (sql: string, dialect: QueryAnalysis.Dialect = "snowflake"): ParsedQuery =>
  Either.getOrThrowWith(parse(sql, dialect), (error) => new Error(error.message))

export const runRule = (
  rule: Rule,
  sql: string,
  options: {
    readonly statistics?: QueryAnalysis.QueryStatistics
    readonly occurrences?: number
    readonly dialect?: QueryAnalysis.Dialect
  } = {}
): ReadonlyArray<Finding> =>
  rule.detect({
    query: parsed(sql, options.dialect),
    statistics: options.statistics,
    occurrences: options.occurrences
  })
