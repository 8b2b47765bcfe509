/**
 * How query analysis and code changes are assembled. The provider is chosen from the environment:
 * the OpenAI-compatible model when COSTLINE_LLM_BASE_URL and COSTLINE_LLM_MODEL are set, else the
 * built-in deterministic rewriter.
 */
import type { QueryAnalysis } from "@costline/core"
import { FetchHttpClient, type HttpClient } from "@effect/platform"
import { type ConfigError, Effect, Layer, Option } from "effect"
import { layerDeterministic, layerWithModel } from "./CodeChanges.js"
import * as OpenAiCompatible from "./OpenAiCompatible.js"
import { config } from "./OpenAiCompatibleConfig.js"
import * as QueryAnalyzerLive from "./QueryAnalyzer.js"

/** CodeChanges with the provider the environment selects; the HTTP client is the host's choice. */
export const CodeChangesFromEnv: Layer.Layer<QueryAnalysis.CodeChanges, ConfigError.ConfigError, HttpClient.HttpClient> = Layer
  .unwrapEffect(
    Effect.map(config, Option.match({
      onNone: () => layerDeterministic,
      onSome: (settings) => layerWithModel.pipe(Layer.provide(OpenAiCompatible.layer(settings)))
    }))
  )

/** QueryAnalyzer and CodeChanges from the environment, calling the model with `fetch`. */
export const AnalysisLive: Layer.Layer<QueryAnalysis.QueryAnalyzer | QueryAnalysis.CodeChanges, ConfigError.ConfigError> =
  QueryAnalyzerLive.layer.pipe(
    Layer.provideMerge(CodeChangesFromEnv),
    Layer.provide(FetchHttpClient.layer)
  )
