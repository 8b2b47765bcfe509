/**
 * Code changes: a suggested rewrite of a query that applies one optimization opportunity. The
 * suggestion comes from the configured language model, or from the built-in deterministic
 * rewriter when none is configured; either way it must parse and differ from the original, and it
 * is returned with a unified diff for a person to review. Nothing is cached or logged.
 */
import { Errors, QueryAnalysis } from "@costline/core"
import { createTwoFilesPatch } from "diff"
import { Context, Effect, Either, Layer } from "effect"
import { detect, ruleFor } from "./Detect.js"
import { DETERMINISTIC_REWRITER, deterministicFixes, rewrite } from "./DeterministicRewriter.js"
import { LanguageModel } from "./LanguageModel.js"
import { buildPrompt, readAnswer } from "./Prompt.js"
import type { Finding } from "./rules/index.js"
import { parse, type ParsedQuery } from "./SqlParse.js"
import { checkSuggestion, type Suggestion } from "./Suggestion.js"

/** Where suggestions come from: the built-in rewriter or a language model. */
interface Suggester {
  readonly generatedBy: QueryAnalysis.GeneratedBy
  readonly supports: (insightType: QueryAnalysis.QueryInsightType) => boolean
  readonly suggest: (
    request: QueryAnalysis.CodeChangeRequest,
    query: ParsedQuery,
    finding: Finding | undefined
  ) => Effect.Effect<Suggestion, QueryAnalysis.CodeChangeError>
}

const builtin: Suggester = {
  generatedBy: DETERMINISTIC_REWRITER,
  supports: (insightType) => deterministicFixes.has(insightType),
  suggest: (request, query) => rewrite(query, request.insight_type, request.context?.tables)
}

const MODEL_WARNING = "Written by a language model: check that it returns the same results before using it."

const fromModel = (model: Context.Tag.Service<LanguageModel>): Suggester => ({
  generatedBy: model.generatedBy,
  supports: (insightType) => QueryAnalysis.QUERY_LEVEL_INSIGHT_TYPES.has(insightType),
  suggest: (request, query, finding) =>
    model.complete(buildPrompt({
      queryText: query.text,
      dialect: query.dialect,
      insightType: request.insight_type,
      finding,
      tables: request.context?.tables
    })).pipe(
      Effect.flatMap((answer) =>
        Either.match(readAnswer(answer), {
          onLeft: (message) => Effect.fail(new QueryAnalysis.ModelOutputInvalid({ message })),
          onRight: (read) => Effect.succeed({ ...read, warnings: [MODEL_WARNING] })
        })
      )
    )
})

/** Unified diff of two query texts; a final newline is added so the last line diffs cleanly. */
export const queryDiff = (original: string, suggested: string): string =>
  createTwoFilesPatch("original.sql", "suggested.sql", `${original}\n`, `${suggested}\n`)

/** The request must name an opportunity a rewrite can fix and, if the text alone shows it, that the query has. */
const findingToFix = (query: ParsedQuery, insightType: QueryAnalysis.QueryInsightType) => {
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

export const make = (suggester: Suggester) =>
  QueryAnalysis.CodeChanges.of({
    generatedBy: suggester.generatedBy,
    supports: suggester.supports,
    generate: (request) =>
      Effect.gen(function*() {
        const query = yield* parse(request.query_text, request.dialect)
        const finding = yield* findingToFix(query, request.insight_type)
        const suggestion = yield* suggester.suggest(request, query, finding)
        const checkWarnings = yield* Either.mapLeft(checkSuggestion(query, suggestion.sql), (reason) =>
          new QueryAnalysis.ModelOutputInvalid({ message: `${suggester.generatedBy.provider} produced an unusable suggestion: ${reason}` }))
        return new QueryAnalysis.CodeChange({
          original_query: query.text,
          suggested_query: suggestion.sql,
          diff: queryDiff(query.text, suggestion.sql),
          explanation: suggestion.explanation || `Rewritten to address ${request.insight_type}.`,
          insight_type: request.insight_type,
          generated_by: suggester.generatedBy,
          review_required: true,
          warnings: [...suggestion.warnings, ...checkWarnings]
        })
      })
  })

/** Code changes from the built-in deterministic rewriter. */
export const layerDeterministic: Layer.Layer<QueryAnalysis.CodeChanges> = Layer.succeed(QueryAnalysis.CodeChanges, make(builtin))

/** Code changes from the LanguageModel in context. */
export const layerWithModel: Layer.Layer<QueryAnalysis.CodeChanges, never, LanguageModel> = Layer.effect(
  QueryAnalysis.CodeChanges,
  Effect.map(LanguageModel, (model) => make(fromModel(model)))
)
