/**
 * The LanguageModel provider for any OpenAI-compatible chat-completions endpoint (hosted APIs and
 * local servers alike). Each attempt has a timeout; 429, 5xx and connection failures are retried
 * with jittered exponential backoff, waiting at least what `Retry-After` asks; the answer is
 * validated before use. The API key is sent as a bearer token and appears in no error or log.
 */
import { QueryAnalysis } from "@costline/core"
import { HttpClient, HttpClientRequest } from "@effect/platform"
import { Clock, Data, Duration, Effect, Layer, Option, Ref, Schedule, Schema } from "effect"
import { LanguageModel, type Prompt } from "./LanguageModel.js"
import type { OpenAiCompatibleConfig } from "./OpenAiCompatibleConfig.js"
import { parseRetryAfter } from "./RetryAfter.js"

export const PROVIDER = "openai-compatible"

/** Longer `Retry-After` waits than this give up instead: the caller's request would time out first. */
export const MAX_RETRY_AFTER = Duration.seconds(30)

const ChatCompletion = Schema.Struct({
  choices: Schema.NonEmptyArray(Schema.Struct({ message: Schema.Struct({ content: Schema.String }) }))
})

/** A failure worth another attempt; becomes ModelUnavailable once the retries are spent. */
class RetryableFailure extends Data.TaggedError("RetryableFailure")<{
  readonly reason: "rate_limited" | "server_error" | "connection_failed"
  readonly status: number | undefined
  readonly retryAfter: Duration.Duration | undefined
}> {}

type AttemptFailure = RetryableFailure | QueryAnalysis.ModelUnavailable | QueryAnalysis.ModelOutputInvalid

const unreachable = new RetryableFailure({ reason: "connection_failed", status: undefined, retryAfter: undefined })

const giveUp = (failure: RetryableFailure, attempts: number): QueryAnalysis.ModelUnavailable =>
  new QueryAnalysis.ModelUnavailable({
    reason: failure.reason,
    message: `the model provider ${
      failure.reason === "connection_failed" ? "could not be reached" : `answered HTTP ${failure.status}`
    } (${attempts} ${attempts === 1 ? "attempt" : "attempts"})`,
    ...(failure.retryAfter === undefined ? {} : { retryAfterSeconds: Math.ceil(Duration.toSeconds(failure.retryAfter)) })
  })

const waitAsked = (failure: AttemptFailure) => failure._tag === "RetryableFailure" ? failure.retryAfter : undefined

/** Exponential backoff with jitter, never shorter than the provider's Retry-After. */
const retrySchedule = (settings: OpenAiCompatibleConfig) =>
  Schedule.exponential(settings.retryBaseDelay).pipe(
    Schedule.jittered,
    Schedule.intersect(Schedule.identity<AttemptFailure>()),
    Schedule.modifyDelay(([, failure], delay) => Duration.max(delay, waitAsked(failure) ?? Duration.zero)),
    Schedule.whileInput((failure: AttemptFailure) =>
      failure._tag === "RetryableFailure" && Duration.lessThanOrEqualTo(waitAsked(failure) ?? Duration.zero, MAX_RETRY_AFTER)
    ),
    Schedule.intersect(Schedule.recurs(settings.maxRetries))
  )

export const make = (settings: OpenAiCompatibleConfig) =>
  Effect.gen(function*() {
    const client = yield* HttpClient.HttpClient
    const url = `${settings.baseUrl}/chat/completions`

    const request = (prompt: Prompt) => {
      const body = HttpClientRequest.post(url).pipe(
        HttpClientRequest.acceptJson,
        HttpClientRequest.bodyUnsafeJson({
          model: settings.model,
          messages: [{ role: "system", content: prompt.system }, { role: "user", content: prompt.user }]
        })
      )
      return Option.match(settings.apiKey, {
        onNone: () => body,
        onSome: (key) => HttpClientRequest.bearerToken(body, key)
      })
    }

    const attempt = (prompt: Prompt): Effect.Effect<string, AttemptFailure> =>
      Effect.gen(function*() {
        const response = yield* client.execute(request(prompt)).pipe(Effect.mapError(() => unreachable))
        if (response.status === 429 || response.status >= 500) {
          const now = yield* Clock.currentTimeMillis
          return yield* new RetryableFailure({
            reason: response.status === 429 ? "rate_limited" : "server_error",
            status: response.status,
            retryAfter: parseRetryAfter(response.headers["retry-after"], now)
          })
        }
        if (response.status < 200 || response.status >= 300) {
          return yield* new QueryAnalysis.ModelUnavailable({
            reason: "rejected",
            message: `the model provider rejected the request (HTTP ${response.status}); ` +
              "check the COSTLINE_LLM_* settings"
          })
        }
        const body = yield* response.json.pipe(
          Effect.mapError(() => new QueryAnalysis.ModelOutputInvalid({ message: "the model provider's answer is not JSON" }))
        )
        const completion = yield* Schema.decodeUnknown(ChatCompletion)(body).pipe(
          Effect.mapError(() => new QueryAnalysis.ModelOutputInvalid({ message: "the model provider's answer is not a chat completion" }))
        )
        return completion.choices[0].message.content
      }).pipe(
        Effect.timeoutFail({
          duration: settings.timeout,
          onTimeout: () =>
            new QueryAnalysis.ModelUnavailable({
              reason: "timeout",
              message: `the model provider did not answer within ${Duration.format(settings.timeout)}`
            })
        })
      )

    return LanguageModel.of({
      generatedBy: { provider: PROVIDER, model: settings.model },
      complete: (prompt) =>
        Effect.gen(function*() {
          const attempts = yield* Ref.make(0)
          return yield* Ref.update(attempts, (n) => n + 1).pipe(
            Effect.zipRight(attempt(prompt)),
            Effect.retry(retrySchedule(settings)),
            Effect.catchTag("RetryableFailure", (failure) =>
              Effect.flatMap(Ref.get(attempts), (count) => Effect.fail(giveUp(failure, count))))
          )
        })
    })
  })

export const layer = (settings: OpenAiCompatibleConfig): Layer.Layer<LanguageModel, never, HttpClient.HttpClient> =>
  Layer.effect(LanguageModel, make(settings))
