import { FetchHttpClient } from "@effect/platform"
import { describe, expect, it } from "@effect/vitest"
import { ConfigProvider, Duration, Effect, Layer, Option } from "effect"
import { QueryAnalysis } from "@costline/core"
import { CodeChangesFromEnv } from "../src/Layers.js"
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
