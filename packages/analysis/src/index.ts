/**
 * @costline/analysis: query analysis and code changes behind core's `QueryAnalyzer` and
 * `CodeChanges` tags — the SQL parser (node-sql-parser), the rules, the deterministic rewriter and
 * the OpenAI-compatible model client. Parsing runs on a pool of worker threads (`SqlWorkers`), so
 * it never holds the caller's event loop. Layers: `AnalysisLive` / `analysisLive(options)`
 * (everything, provider from the environment, `fetch` for HTTP), or the pieces below, which need
 * `SqlWorkersLive(options)`.
 */
export { LanguageModel, type Prompt } from "./LanguageModel.js"
export * as OpenAiCompatible from "./OpenAiCompatible.js"
export { config as openAiCompatibleConfig, type OpenAiCompatibleConfig } from "./OpenAiCompatibleConfig.js"
export { DETERMINISTIC_REWRITER, deterministicFixes } from "./DeterministicRewriter.js"

export {
  layerDeterministic as CodeChangesDeterministic,
  layerWithModel as CodeChangesWithModel
} from "./CodeChanges.js"
export { analyze, layer as QueryAnalyzerLive } from "./QueryAnalyzer.js"
export { parameterizedHash } from "./SqlParse.js"
export {
  DEFAULT_TIME_LIMIT as SQL_WORKERS_DEFAULT_TIME_LIMIT,
  layer as SqlWorkersLive,
  SqlWorkers,
  type SqlWorkersOptions
} from "./SqlWorkers.js"

export { AnalysisLive, analysisLive, CodeChangesFromEnv } from "./Layers.js"
