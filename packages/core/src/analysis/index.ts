/**
 * Query analysis and model-generated code changes (issue 6): the request and response shapes,
 * the provider errors and the service tags. The implementations and their layers (`AnalysisLive`)
 * are in @costline/analysis.
 */
export * from "./Domain.js"
export * from "./Errors.js"
export { type CodeChangeError, CodeChanges, QueryAnalyzer, type QueryHistory } from "./Services.js"
