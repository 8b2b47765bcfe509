/** Shared test helpers: parse a query or fail the test, run one rule over it, the services' layers. */
import { Either, Layer } from "effect"
import type { QueryAnalysis } from "@costline/core"
import type { Finding, Rule } from "../src/rules/index.js"
import { layerDeterministic } from "../src/CodeChanges.js"
import { parse, type ParsedQuery } from "../src/SqlParse.js"
import * as SqlWorkers from "../src/SqlWorkers.js"

/** A pool of one analysis worker thread: each test that provides it starts its own. */
export const workers = SqlWorkers.layer({ size: 1 })

/** CodeChanges from the built-in rewriter, on a worker of its own. */
export const deterministic = layerDeterministic.pipe(Layer.provide(workers))

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
