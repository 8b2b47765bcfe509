/**
 * The synchronous work of query analysis — parsing, the rules, the built-in rewrites, checking a
 * suggestion, diffing — as jobs that an analysis worker thread runs (`SqlWorker.ts`), so that none
 * of it holds the server's event loop. A job and its outcome are data that structured clone
 * carries: what a job returns is encoded with its schema in the worker and decoded by the caller.
 */
import { Errors, QueryAnalysis } from "@costline/core"
import { createTwoFilesPatch } from "diff"
import { Either, Schema } from "effect"
import { detect, ruleFor } from "./Detect.js"
import { DETERMINISTIC_REWRITER, rewrite } from "./DeterministicRewriter.js"
import { analyze } from "./QueryAnalyzer.js"
import { readAnswer } from "./Prompt.js"
import type { Finding } from "./rules/index.js"
import { parse, type ParsedQuery } from "./SqlParse.js"
import { checkAgainst, checkSuggestion, type Original, tablesOf } from "./Suggestion.js"

/** Analyzes a query; `generatable` lists the types a code change can be generated for. */
export interface AnalyzeJob {
  readonly _tag: "Analyze"
  readonly request: QueryAnalysis.AnalyzeQueryRequest
  readonly history: QueryAnalysis.QueryHistory | undefined
  readonly generatable: ReadonlyArray<QueryAnalysis.QueryInsightType>
}

/** A whole code change from the built-in rewriter. */
export interface RewriteJob {
  readonly _tag: "Rewrite"
  readonly request: QueryAnalysis.CodeChangeRequest
}

/** Before asking a model: the query parses, and shows the opportunity if the text alone can. */
export interface PrepareJob {
  readonly _tag: "Prepare"
  readonly request: QueryAnalysis.CodeChangeRequest
}

/** After a model answered: its answer read, its SQL checked against the original, and the diff. */
export interface CheckJob {
  readonly _tag: "Check"
  readonly original: Original
  /** The model's answer as it gave it. */
  readonly answer: string
  /** Who made the suggestion, for the error's message. */
  readonly provider: string
}

export type Job = AnalyzeJob | RewriteJob | PrepareJob | CheckJob

const FindingSchema = Schema.Struct(QueryAnalysis.QueryInsightV2.fields).pipe(Schema.omit("code_change_available"))

/** What each kind of job succeeds and fails with. */
export const RESULTS = {
  Analyze: { success: Schema.Array(QueryAnalysis.QueryInsightV2), failure: Errors.ValidationFailed },
  Rewrite: { success: QueryAnalysis.CodeChange, failure: Schema.Union(Errors.ValidationFailed, QueryAnalysis.ModelOutputInvalid) },
  Prepare: {
    success: Schema.Struct({ finding: Schema.UndefinedOr(FindingSchema), tables: Schema.Array(Schema.String) }),
    failure: Errors.ValidationFailed
  },
  Check: {
    success: Schema.Struct({
      sql: Schema.String,
      explanation: Schema.String,
      warnings: Schema.Array(Schema.String),
      diff: Schema.String
    }),
    failure: QueryAnalysis.ModelOutputInvalid
  }
} satisfies Record<Job["_tag"], { readonly success: Schema.Schema<any, any>; readonly failure: Schema.Schema<any, any> }>

export type JobSuccess<K extends Job["_tag"]> = Schema.Schema.Type<typeof RESULTS[K]["success"]>
export type JobFailure<K extends Job["_tag"]> = Schema.Schema.Type<typeof RESULTS[K]["failure"]>

/** A job's outcome as it crosses from the worker: encoded values, or a bug's message. */
export type Outcome =
  | { readonly _tag: "Success"; readonly value: unknown }
  | { readonly _tag: "Failure"; readonly error: unknown }
  | { readonly _tag: "Defect"; readonly message: string }

/** Unified diff of two query texts; a final newline is added so the last line diffs cleanly. */
export const queryDiff = (original: string, suggested: string): string =>
  createTwoFilesPatch("original.sql", "suggested.sql", `${original}\n`, `${suggested}\n`)

/** The request must name an opportunity a rewrite can fix and, if the text alone shows it, that the query has. */
const findingToFix = (
  query: ParsedQuery,
  insightType: QueryAnalysis.QueryInsightType
): Either.Either<Finding | undefined, Errors.ValidationFailed> => {
  if (!QueryAnalysis.QUERY_LEVEL_INSIGHT_TYPES.has(insightType)) {
    return Either.left(Errors.ValidationFailed.single(
      "insight_type",
      "not_query_level",
      `${insightType} is not fixed by rewriting the query: it concerns the warehouse or how often the query runs`
    ))
  }
  const finding = detect(query, {}).find((found) => found.insight_type === insightType)
  if (finding === undefined && ruleFor(insightType).basis === "sql") {
    return Either.left(Errors.ValidationFailed.single("insight_type", "not_found", `the query shows no ${insightType}`))
  }
  return Either.right(finding)
}

const unusable = (provider: string, reason: string) =>
  new QueryAnalysis.ModelOutputInvalid({ message: `${provider} produced an unusable suggestion: ${reason}` })

const rewriteJob = ({ request }: RewriteJob) =>
  Either.gen(function*() {
    const query = yield* parse(request.query_text, request.dialect)
    yield* findingToFix(query, request.insight_type)
    const suggestion = yield* rewrite(query, request.insight_type, request.context?.tables)
    const checkWarnings = yield* Either.mapLeft(
      checkSuggestion(query, suggestion.sql),
      (reason) => unusable(DETERMINISTIC_REWRITER.provider, reason)
    )
    return new QueryAnalysis.CodeChange({
      original_query: query.text,
      suggested_query: suggestion.sql,
      diff: queryDiff(query.text, suggestion.sql),
      explanation: suggestion.explanation || `Rewritten to address ${request.insight_type}.`,
      insight_type: request.insight_type,
      generated_by: DETERMINISTIC_REWRITER,
      review_required: true,
      warnings: [...suggestion.warnings, ...checkWarnings]
    })
  })

const prepareJob = ({ request }: PrepareJob) =>
  Either.flatMap(parse(request.query_text, request.dialect), (query) =>
    Either.map(findingToFix(query, request.insight_type), (finding) => ({ finding, tables: tablesOf(query) })))

const checkJob = ({ answer, original, provider }: CheckJob) =>
  Either.gen(function*() {
    const { explanation, sql } = yield* Either.mapLeft(readAnswer(answer), (message) => new QueryAnalysis.ModelOutputInvalid({ message }))
    const warnings = yield* Either.mapLeft(checkAgainst(original, sql), (reason) => unusable(provider, reason))
    return { sql, explanation, warnings, diff: queryDiff(original.text, sql) }
  })

const outcome = <A, I, E, EI>(
  result: Either.Either<A, E>,
  schemas: { readonly success: Schema.Schema<A, I>; readonly failure: Schema.Schema<E, EI> }
): Outcome =>
  Either.isRight(result)
    ? { _tag: "Success", value: Schema.encodeSync(schemas.success)(result.right) }
    : { _tag: "Failure", error: Schema.encodeSync(schemas.failure)(result.left) }

/** Runs a job to its outcome; a thrown exception is a defect, reported rather than thrown. */
export const runJob = (job: Job): Outcome => {
  try {
    switch (job._tag) {
      case "Analyze": {
        const generatable = new Set(job.generatable)
        const result = analyze(job.request, { history: job.history, canGenerate: (type) => generatable.has(type) })
        return outcome(result, RESULTS.Analyze)
      }
      case "Rewrite":
        return outcome(rewriteJob(job), RESULTS.Rewrite)
      case "Prepare":
        return outcome(prepareJob(job), RESULTS.Prepare)
      case "Check":
        return outcome(checkJob(job), RESULTS.Check)
    }
  } catch (error) {
    return { _tag: "Defect", message: error instanceof Error ? error.stack ?? error.message : String(error) }
  }
}
