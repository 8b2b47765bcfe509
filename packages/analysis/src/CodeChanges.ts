/**
 * Code changes: a suggested rewrite of a query that applies one optimization opportunity. The
 * suggestion comes from the configured language model, or from the built-in deterministic
 * rewriter when none is configured; either way it must parse and differ from the original, and it
 * is returned with a unified diff for a person to review. Nothing is cached or logged. Parsing,
 * rewriting, checking and diffing run on an analysis worker thread (`SqlWorkers`, `Jobs.ts`); the
 * model is called from here.
 */
import { QueryAnalysis } from "@costline/core"
import { Effect, Layer } from "effect"
import { DETERMINISTIC_REWRITER, deterministicFixes } from "./DeterministicRewriter.js"
import { LanguageModel } from "./LanguageModel.js"
import { buildPrompt } from "./Prompt.js"
import { SqlWorkers } from "./SqlWorkers.js"

export { queryDiff } from "./Jobs.js"

const MODEL_WARNING = "Written by a language model: check that it returns the same results before using it."

/** Code changes from the built-in rewriter: one job does all of it. */
const builtin = (workers: SqlWorkers["Type"]) =>
  QueryAnalysis.CodeChanges.of({
    generatedBy: DETERMINISTIC_REWRITER,
    supports: (insightType) => deterministicFixes.has(insightType),
    generate: (request) => workers.run({ _tag: "Rewrite", request })
  })

/** Code changes from a model: the query is checked, the model asked, its answer checked. */
const fromModel = (workers: SqlWorkers["Type"], model: LanguageModel["Type"]) =>
  QueryAnalysis.CodeChanges.of({
    generatedBy: model.generatedBy,
    supports: (insightType) => QueryAnalysis.QUERY_LEVEL_INSIGHT_TYPES.has(insightType),
    generate: (request) =>
      Effect.gen(function*() {
        const { finding, tables } = yield* workers.run({ _tag: "Prepare", request })
        const answer = yield* model.complete(buildPrompt({
          queryText: request.query_text,
          dialect: request.dialect,
          insightType: request.insight_type,
          finding,
          tables: request.context?.tables
        }))
        const checked = yield* workers.run({
          _tag: "Check",
          original: { text: request.query_text, dialect: request.dialect, tables },
          answer,
          provider: model.generatedBy.provider
        })
        return new QueryAnalysis.CodeChange({
          original_query: request.query_text,
          suggested_query: checked.sql,
          diff: checked.diff,
          explanation: checked.explanation || `Rewritten to address ${request.insight_type}.`,
          insight_type: request.insight_type,
          generated_by: model.generatedBy,
          review_required: true,
          warnings: [MODEL_WARNING, ...checked.warnings]
        })
      })
  })

/** Code changes from the built-in deterministic rewriter. */
export const layerDeterministic: Layer.Layer<QueryAnalysis.CodeChanges, never, SqlWorkers> = Layer.effect(
  QueryAnalysis.CodeChanges,
  Effect.map(SqlWorkers, builtin)
)

/** Code changes from the LanguageModel in context. */
export const layerWithModel: Layer.Layer<QueryAnalysis.CodeChanges, never, LanguageModel | SqlWorkers> = Layer.effect(
  QueryAnalysis.CodeChanges,
  Effect.zipWith(SqlWorkers, LanguageModel, fromModel)
)
