/**
 * How query analysis and code changes are assembled. The provider is chosen from the environment:
 * the OpenAI-compatible model when COSTLINE_LLM_BASE_URL and COSTLINE_LLM_MODEL are set, else the
 * built-in deterministic rewriter. Parsing runs on the analysis worker threads (`SqlWorkers`).
 */
import type { QueryAnalysis } from "@costline/core"
import { FetchHttpClient, type HttpClient } from "@effect/platform"
import { Config, type ConfigError, Effect, Layer, Option } from "effect"
import { layerDeterministic, layerWithModel } from "./CodeChanges.js"
import * as OpenAiCompatible from "./OpenAiCompatible.js"
import { config } from "./OpenAiCompatibleConfig.js"
import * as QueryAnalyzerLive from "./QueryAnalyzer.js"
import * as SqlWorkers from "./SqlWorkers.js"

/** CodeChanges with the provider the environment selects; the HTTP client is the host's choice. */
export const CodeChangesFromEnv: Layer.Layer<
  QueryAnalysis.CodeChanges,
  ConfigError.ConfigError,
  HttpClient.HttpClient | SqlWorkers.SqlWorkers
> = Layer.unwrapEffect(
  Effect.map(config, Option.match({
    onNone: () => layerDeterministic,
    onSome: (settings) => layerWithModel.pipe(Layer.provide(OpenAiCompatible.layer(settings)))
  }))
)

/** The worker pool's settings from COSTLINE_ANALYSIS_WORKERS and COSTLINE_ANALYSIS_TIME_LIMIT, else its defaults. */
export const workersConfig: Config.Config<SqlWorkers.SqlWorkersOptions> = Config.all({
  size: Config.option(Config.integer("COSTLINE_ANALYSIS_WORKERS").pipe(
    Config.validate({ message: "must be from 1 to 64", validation: (n) => n >= 1 && n <= 64 })
  )),
  timeLimit: Config.option(Config.duration("COSTLINE_ANALYSIS_TIME_LIMIT"))
}).pipe(Config.map(({ size, timeLimit }) => ({ size: Option.getOrUndefined(size), timeLimit: Option.getOrUndefined(timeLimit) })))

/**
 * QueryAnalyzer and CodeChanges calling the model with `fetch`, with their own pool of worker
 * threads (`options`, each setting otherwise from the environment, else its default). The threads
 * start on the first analysis and are terminated when the layer's scope closes.
 */
export const analysisLive = (
  options: SqlWorkers.SqlWorkersOptions = {}
): Layer.Layer<QueryAnalysis.QueryAnalyzer | QueryAnalysis.CodeChanges, ConfigError.ConfigError> =>
  QueryAnalyzerLive.layer.pipe(
    Layer.provideMerge(CodeChangesFromEnv),
    Layer.provide(Layer.merge(
      FetchHttpClient.layer,
      Layer.unwrapEffect(Effect.map(workersConfig, (fromEnv) =>
        SqlWorkers.layer({
          ...options,
          size: options.size ?? fromEnv.size,
          timeLimit: options.timeLimit ?? fromEnv.timeLimit
        })))
    ))
  )

/** `analysisLive` with every setting from the environment or its default. */
export const AnalysisLive: Layer.Layer<QueryAnalysis.QueryAnalyzer | QueryAnalysis.CodeChanges, ConfigError.ConfigError> = analysisLive()
