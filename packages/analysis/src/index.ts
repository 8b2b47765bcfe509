/**
 * @costline/analysis: query analysis and code changes behind core's `QueryAnalyzer` and
 * `CodeChanges` tags — the SQL parser (node-sql-parser), the rules, the deterministic rewriter and
 * the OpenAI-compatible model client. Layers: `AnalysisLive` (everything, provider from the
 * environment, `fetch` for HTTP), or the pieces below.
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

export { AnalysisLive, CodeChangesFromEnv } from "./Layers.js"
