import { FetchHttpClient } from "@effect/platform"
import { describe, expect, it } from "@effect/vitest"
import { Chunk, Duration, Effect, Either, Fiber, Option, Redacted, TestClock } from "effect"
import * as OpenAiCompatible from "../src/OpenAiCompatible.js"
import type { OpenAiCompatibleConfig } from "../src/OpenAiCompatibleConfig.js"
import { closedPortUrl, completion, fakeModelServer, type Reply } from "../src/testing/FakeModelServer.js"

const KEY = "sk-test-0123456789-secret"
const PROMPT = { system: "You rewrite SQL.", user: "Fix SELECT * FROM t" }

const settings = (baseUrl: string, overrides: Partial<OpenAiCompatibleConfig> = {}) => ({
  baseUrl,
  model: "test-model",
  apiKey: Option.some(Redacted.make(KEY)),
  timeout: Duration.seconds(10),
  maxRetries: 2,
  retryBaseDelay: Duration.millis(1),
  ...overrides
})

const complete = (config: OpenAiCompatibleConfig) =>
  OpenAiCompatible.make(config).pipe(
    Effect.flatMap((model) => model.complete(PROMPT)),
    Effect.provide(FetchHttpClient.layer)
  )

/** Runs the provider against a server answering with `replies` in turn (the last one repeats). */
const against = (replies: ReadonlyArray<Reply>, overrides: Partial<OpenAiCompatibleConfig> = {}) =>
  Effect.gen(function*() {
    const server = yield* fakeModelServer((n) => replies[Math.min(n, replies.length - 1)]!)
    const result = yield* Effect.either(complete(settings(server.baseUrl, overrides)))
    return { result, received: server.received }
  })

const expectNoKey = (error: unknown) => {
  expect(JSON.stringify(error)).not.toContain(KEY)
  expect(String(error)).not.toContain(KEY)
}

describe("OpenAI-compatible provider", () => {
  it.scopedLive("posts the prompt with the bearer key and returns the completion", () =>
    Effect.gen(function*() {
      const { received, result } = yield* against([completion("```sql\nSELECT a FROM t\n```")])
      expect(result).toEqual(Either.right("```sql\nSELECT a FROM t\n```"))
      expect(received).toHaveLength(1)
      expect(received[0]).toMatchObject({ method: "POST", url: "/v1/chat/completions" })
      expect(received[0]?.headers.authorization).toBe(`Bearer ${KEY}`)
      expect(received[0]?.body).toEqual({
        model: "test-model",
        messages: [{ role: "system", content: PROMPT.system }, { role: "user", content: PROMPT.user }]
      })
    }))

  it.scopedLive("sends no Authorization header without a key", () =>
    Effect.gen(function*() {
      const { received } = yield* against([completion("ok")], { apiKey: Option.none() })
      expect(received[0]?.headers.authorization).toBeUndefined()
    }))

  it.scopedLive("retries after 429 and returns the later answer", () =>
    Effect.gen(function*() {
      const { received, result } = yield* against([
        { status: 429, headers: { "retry-after": "0" }, body: "slow down" },
        completion("SELECT 1")
      ])
      expect(result._tag === "Right" && result.right).toBe("SELECT 1")
      expect(received).toHaveLength(2)
    }))

  it.scopedLive("gives up on repeated 5xx after the configured retries", () =>
    Effect.gen(function*() {
      const { received, result } = yield* against([{ status: 503, body: `upstream error for ${KEY}` }])
      expect(received).toHaveLength(3)
      const error = result._tag === "Left" ? result.left : undefined
      expect(error).toMatchObject({ _tag: "ModelUnavailable", reason: "server_error" })
      expect(error?.message).toBe("the model provider answered HTTP 503 (3 attempts)")
      expectNoKey(error)
    }))

  it.scopedLive("does not retry a rejected request", () =>
    Effect.gen(function*() {
      const { received, result } = yield* against([{ status: 401, body: "bad key" }])
      expect(received).toHaveLength(1)
      expect(result._tag === "Left" && result.left).toMatchObject({ _tag: "ModelUnavailable", reason: "rejected" })
      expectNoKey(result)
    }))

  it.scopedLive("times out a slow answer without retrying it", () =>
    Effect.gen(function*() {
      const { received, result } = yield* against(["never"], { timeout: Duration.millis(150) })
      expect(received).toHaveLength(1)
      const error = result._tag === "Left" ? result.left : undefined
      expect(error).toMatchObject({ _tag: "ModelUnavailable", reason: "timeout" })
      expect(error?.message).toMatch(/did not answer within 150ms/)
      expectNoKey(error)
    }))

  it.scopedLive("reports an answer that is not JSON, or not a completion, as invalid output", () =>
    Effect.gen(function*() {
      const notJson = yield* against([{ status: 200, headers: { "content-type": "application/json" }, body: "{oops" }])
      expect(notJson.result._tag === "Left" && notJson.result.left).toMatchObject({
        _tag: "ModelOutputInvalid",
        message: "the model provider's answer is not JSON"
      })
      const wrongShape = yield* against([{ status: 200, body: JSON.stringify({ choices: [] }) }])
      expect(wrongShape.result._tag === "Left" && wrongShape.result.left).toMatchObject({
        _tag: "ModelOutputInvalid",
        message: "the model provider's answer is not a chat completion"
      })
      expectNoKey(notJson.result)
    }))

  it.live("reports a provider nobody listens on as unreachable", () =>
    Effect.gen(function*() {
      const baseUrl = yield* closedPortUrl
      const error = yield* Effect.flip(complete(settings(baseUrl, { maxRetries: 1 })))
      expect(error).toMatchObject({ _tag: "ModelUnavailable", reason: "connection_failed" })
      expect(error.message).toBe("the model provider could not be reached (2 attempts)")
      expectNoKey(error)
    }))

  it.scoped("waits at least as long as Retry-After asks", () =>
    Effect.gen(function*() {
      const server = yield* fakeModelServer((n) =>
        n === 0 ? { status: 429, headers: { "retry-after": "5" }, body: "" } : completion("SELECT 2")
      )
      const fiber = yield* Effect.fork(complete(settings(server.baseUrl, { timeout: Duration.minutes(1) })))
      // The clock is frozen: wait (on real I/O, not on time) until the retry is scheduled.
      const retryAt = yield* TestClock.sleeps().pipe(
        Effect.map(Chunk.findFirst((at) => at < Duration.toMillis(Duration.minutes(1)))),
        Effect.tap(() => Effect.promise(() => new Promise((resolve) => setImmediate(resolve)))),
        Effect.repeat({ until: Option.isSome }),
        Effect.map(Option.getOrThrow)
      )
      expect(retryAt).toBe(5_000)
      expect(server.received).toHaveLength(1)
      yield* TestClock.adjust(Duration.seconds(5))
      expect(yield* Fiber.join(fiber)).toBe("SELECT 2")
      expect(server.received).toHaveLength(2)
    }))

  it.scopedLive("gives up at once when Retry-After is longer than it will wait", () =>
    Effect.gen(function*() {
      const { received, result } = yield* against([{ status: 429, headers: { "retry-after": "3600" }, body: "" }])
      expect(received).toHaveLength(1)
      expect(result._tag === "Left" && result.left).toMatchObject({ reason: "rate_limited", retryAfterSeconds: 3600 })
    }))
})
