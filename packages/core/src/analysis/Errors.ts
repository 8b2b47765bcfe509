/**
 * Failures of a language-model provider. Messages are written for the API caller: they name the
 * cause (status, timeout) and never carry the provider's URL, API key or response body.
 */
import { Schema } from "effect"

/**
 * @since 0.1.0
 * @category schemas
 */
export const UnavailableReason = Schema.Literal(
  "timeout",
  "rate_limited",
  "server_error",
  "connection_failed",
  "rejected"
)
/**
 * @since 0.1.0
 * @category models
 */
export type UnavailableReason = typeof UnavailableReason.Type

/**
 * The provider could not answer (timeout, 429/5xx after retries, refused request); maps to 503.
 * @since 0.1.0
 * @category errors
 */
export class ModelUnavailable extends Schema.TaggedError<ModelUnavailable>()("ModelUnavailable", {
  reason: UnavailableReason,
  message: Schema.String,
  /** The provider's own Retry-After, when it gave one: a hint for the caller's retry. */
  retryAfterSeconds: Schema.optional(Schema.Number)
}) {}

/**
 * The provider answered with something unusable (not JSON, no SQL, SQL that does not parse); maps to 502.
 * @since 0.1.0
 * @category errors
 */
export class ModelOutputInvalid extends Schema.TaggedError<ModelOutputInvalid>()("ModelOutputInvalid", {
  message: Schema.String
}) {}

/**
 * Every query-analysis worker is busy and the queue in front of them is full: the request was not
 * started. Maps to 503 with a Retry-After of `retryAfterSeconds`.
 * @since 0.1.0
 * @category errors
 */
export class AnalysisBusy extends Schema.TaggedError<AnalysisBusy>()("AnalysisBusy", {
  message: Schema.String,
  retryAfterSeconds: Schema.Number
}) {}
