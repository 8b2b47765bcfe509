import { FetchHttpClient } from "@effect/platform"
import { describe, expect, it } from "@effect/vitest"
import { Chunk, type ConfigError, ConfigProvider, Duration, Effect, Fiber, Layer, Option, TestClock } from "effect"
import { QueryAnalysis } from "@costline/core"
import { analysisLive, CodeChangesFromEnv, workersConfig } from "../src/Layers.js"
import { workers } from "./helpers.js"
import { config } from "../src/OpenAiCompatibleConfig.js"

const withEnv = (env: Record<string, string>) => Layer.setConfigProvider(ConfigProvider.fromMap(new Map(Object.entries(env))))

const providerFor = (env: Record<string, string>) =>
  Effect.map(QueryAnalysis.CodeChanges, (changes) => changes.generatedBy).pipe(
    Effect.provide(CodeChangesFromEnv.pipe(Layer.provide(FetchHttpClient.layer), Layer.provide(workers), Layer.provide(withEnv(env))))
  )

describe("CodeChangesFromEnv", () => {
  it.effect("uses the built-in rewriter when no model is configured", () =>
    Effect.gen(function*() {
      expect(yield* providerFor({})).toEqual({ provider: "builtin", model: "deterministic-rewriter" })
      expect(yield* providerFor({ COSTLINE_LLM_BASE_URL: " ", COSTLINE_LLM_MODEL: "" })).toEqual({
        provider: "builtin",
        model: "deterministic-rewriter"
      })
    }))

  it.effect("uses the OpenAI-compatible model when its URL and model are set", () =>
    Effect.gen(function*() {
      const env = { COSTLINE_LLM_BASE_URL: "http://127.0.0.1:11434/v1/", COSTLINE_LLM_MODEL: "llama3" }
      expect(yield* providerFor(env)).toEqual({ provider: "openai-compatible", model: "llama3" })
    }))

  it.effect("refuses half a configuration or a URL that is not http(s)", () =>
    Effect.gen(function*() {
      const half = yield* Effect.flip(providerFor({ COSTLINE_LLM_BASE_URL: "https://api.example.com/v1" }))
      expect(String(half)).toMatch(/must be set together/)
      const ftp = yield* Effect.flip(providerFor({ COSTLINE_LLM_BASE_URL: "ftp://example.com", COSTLINE_LLM_MODEL: "m" }))
      expect(String(ftp)).toMatch(/must be an http\(s\) URL/)
    }))
})

describe("OpenAI-compatible config", () => {
  it.effect("reads the key as a secret and the tuning knobs with defaults", () =>
    Effect.gen(function*() {
      const read = (env: Record<string, string>) =>
        Effect.map(config, Option.getOrThrow).pipe(Effect.provide(withEnv(env)))
      const base = { COSTLINE_LLM_BASE_URL: "https://api.example.com/v1//", COSTLINE_LLM_MODEL: "gpt-x" }
      const defaults = yield* read({ ...base, COSTLINE_LLM_API_KEY: "sk-secret" })
      expect(defaults.baseUrl).toBe("https://api.example.com/v1")
      expect(String(defaults.apiKey)).not.toContain("sk-secret")
      expect(defaults.timeout).toEqual(Duration.seconds(60))
      expect(defaults.maxRetries).toBe(3)
      const tuned = yield* read({ ...base, COSTLINE_LLM_TIMEOUT: "5 seconds", COSTLINE_LLM_MAX_RETRIES: "0" })
      expect(tuned.timeout).toEqual(Duration.seconds(5))
      expect(tuned.maxRetries).toBe(0)
      expect(Option.isNone(tuned.apiKey)).toBe(true)
      expect(String(yield* Effect.flip(read({ ...base, COSTLINE_LLM_MAX_RETRIES: "99" })))).toMatch(/from 0 to 10/)
    }))
})

describe("the analysis worker threads' settings", () => {
  const read = (env: Record<string, string>) => workersConfig.pipe(Effect.provide(withEnv(env)))

  it.effect("come from COSTLINE_ANALYSIS_WORKERS and COSTLINE_ANALYSIS_TIME_LIMIT, else the pool's defaults", () =>
    Effect.gen(function*() {
      expect(yield* read({})).toEqual({ size: undefined, timeLimit: undefined })
      const set = yield* read({ COSTLINE_ANALYSIS_WORKERS: "3", COSTLINE_ANALYSIS_TIME_LIMIT: "2 seconds" })
      expect(set).toEqual({ size: 3, timeLimit: Duration.seconds(2) })
      expect(String(yield* Effect.flip(read({ COSTLINE_ANALYSIS_WORKERS: "0" })))).toMatch(/from 1 to 64/)
    }))

  it.effect("reach the pool analysisLive builds; what the host passes wins", () =>
    Effect.gen(function*() {
      const slow = new QueryAnalysis.AnalyzeQueryRequest({
        query_text: `SELECT ${Array.from({ length: 13_500 }, (_, i) => `c${i}`).join(", ")} FROM t`
      })
      const timedOut = (layer: Layer.Layer<QueryAnalysis.QueryAnalyzer, ConfigError.ConfigError>, limit: Duration.Duration) =>
        Effect.gen(function*() {
          const analyzer = yield* QueryAnalysis.QueryAnalyzer
          const fiber = yield* Effect.fork(Effect.flip(analyzer.analyze(slow)))
          while (Chunk.isEmpty(yield* TestClock.sleeps())) yield* Effect.promise(() => new Promise((resolve) => setTimeout(resolve, 5)))
          yield* TestClock.adjust(limit)
          return (yield* Fiber.join(fiber)).message
        }).pipe(Effect.provide(layer))
      const env = withEnv({ COSTLINE_ANALYSIS_TIME_LIMIT: "2 seconds" })
      expect(yield* timedOut(analysisLive().pipe(Layer.provide(env)), Duration.seconds(2))).toMatch(/longer than 2 s/)
      const passed = analysisLive({ timeLimit: Duration.seconds(3) }).pipe(Layer.provide(env))
      expect(yield* timedOut(passed, Duration.seconds(3))).toMatch(/longer than 3 s/)
    }))
})
