/**
 * Query analysis and model-generated code changes (issue 6). Layers: `AnalysisLive` (everything,
 * provider from the environment, `fetch` for HTTP), or the pieces in `Layers.ts` / `CodeChanges.ts`.
 */
export * from "./Domain.js"
export * from "./Errors.js"

export { LanguageModel, type Prompt } from "./LanguageModel.js"
export * as OpenAiCompatible from "./OpenAiCompatible.js"
export { config as openAiCompatibleConfig, type OpenAiCompatibleConfig } from "./OpenAiCompatibleConfig.js"
export { DETERMINISTIC_REWRITER, deterministicFixes } from "./DeterministicRewriter.js"

export {
  type CodeChangeError,
  CodeChanges,
  layerDeterministic as CodeChangesDeterministic,
  layerWithModel as CodeChangesWithModel
} from "./CodeChanges.js"
export type { QueryHistory } from "./Detect.js"
export { analyze, layer as QueryAnalyzerLive, QueryAnalyzer } from "./QueryAnalyzer.js"
export { parameterizedHash } from "./SqlParse.js"

export { AnalysisLive, CodeChangesFromEnv } from "./Layers.js"
