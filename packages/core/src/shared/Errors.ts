/**
 * The typed failures of the domain. They carry no HTTP knowledge: the http package maps each
 * tag to a status and a body (problem+json for v2, FastAPI `detail` for v1).
 */
import { Effect, Option, Schema } from "effect"

/**
 * One field-level problem, addressed by a dotted path such as `body.name` or `filters[2].value`.
 * @since 0.1.0
 * @category models
 */
export class FieldIssue extends Schema.Class<FieldIssue>("FieldIssue")({
  field: Schema.String,
  issue: Schema.String,
  message: Schema.String
}) {}

/**
 * @since 0.1.0
 * @category errors
 */
export class ValidationFailed extends Schema.TaggedError<ValidationFailed>()("ValidationFailed", {
  message: Schema.String,
  details: Schema.Array(FieldIssue)
}) {
  static single(field: string, issue: string, message: string) {
    return new ValidationFailed({ message, details: [new FieldIssue({ field, issue, message })] })
  }
}

/**
 * @since 0.1.0
 * @category errors
 */
export class BadRequest extends Schema.TaggedError<BadRequest>()("BadRequest", {
  message: Schema.String
}) {}

/**
 * @since 0.1.0
 * @category errors
 */
export class InvalidPageToken extends Schema.TaggedError<InvalidPageToken>()("InvalidPageToken", {
  message: Schema.String
}) {}

/**
 * @since 0.1.0
 * @category errors
 */
export class Unauthorized extends Schema.TaggedError<Unauthorized>()("Unauthorized", {
  message: Schema.String
}) {}

/**
 * @since 0.1.0
 * @category errors
 */
export class Forbidden extends Schema.TaggedError<Forbidden>()("Forbidden", {
  message: Schema.String
}) {}

/**
 * @since 0.1.0
 * @category errors
 */
export class NotFound extends Schema.TaggedError<NotFound>()("NotFound", {
  resource: Schema.String,
  id: Schema.String
}) {
  override get message() {
    return `${this.resource} ${this.id} not found`
  }
}

/**
 * A repository lookup that found nothing becomes `NotFound` for the named resource.
 * @since 0.1.0
 * @category utils
 */
export const orNotFound = (resource: string, id: string) =>
<A, E, R>(self: Effect.Effect<Option.Option<A>, E, R>): Effect.Effect<A, E | NotFound, R> =>
  Effect.flatMap(self, Option.match({
    onNone: () => Effect.fail(new NotFound({ resource, id })),
    onSome: Effect.succeed
  }))

/**
 * A uniqueness rule was broken (a second all-users team, a duplicate name, ...).
 * @since 0.1.0
 * @category errors
 */
export class AlreadyExists extends Schema.TaggedError<AlreadyExists>()("AlreadyExists", {
  message: Schema.String
}) {}

/**
 * The request is valid but conflicts with the current state.
 * @since 0.1.0
 * @category errors
 */
export class Conflict extends Schema.TaggedError<Conflict>()("Conflict", {
  message: Schema.String
}) {}

/**
 * @since 0.1.0
 * @category errors
 */
export class InvalidTransition extends Schema.TaggedError<InvalidTransition>()("InvalidTransition", {
  from: Schema.String,
  to: Schema.String
}) {
  override get message() {
    return `cannot move from '${this.from}' to '${this.to}'`
  }
}

/**
 * @since 0.1.0
 * @category errors
 */
export class PreconditionFailed extends Schema.TaggedError<PreconditionFailed>()("PreconditionFailed", {
  message: Schema.String
}) {}

/**
 * @since 0.1.0
 * @category errors
 */
export class PreconditionRequired extends Schema.TaggedError<PreconditionRequired>()("PreconditionRequired", {
  message: Schema.String
}) {}

/**
 * @since 0.1.0
 * @category errors
 */
export class RateLimited extends Schema.TaggedError<RateLimited>()("RateLimited", {
  retryAfterSeconds: Schema.Number
}) {
  override get message() {
    return "rate limit exceeded"
  }
}

/**
 * The store cannot be reached or timed out; the caller may retry. Never a partial write.
 * @since 0.1.0
 * @category errors
 */
export class StoreUnavailable extends Schema.TaggedError<StoreUnavailable>()("StoreUnavailable", {
  message: Schema.String
}) {}

/**
 * Every failure a domain operation can report to a caller.
 * @since 0.1.0
 * @category models
 */
export type DomainError =
  | ValidationFailed
  | BadRequest
  | InvalidPageToken
  | Unauthorized
  | Forbidden
  | NotFound
  | AlreadyExists
  | Conflict
  | InvalidTransition
  | PreconditionFailed
  | PreconditionRequired
  | RateLimited
  | StoreUnavailable
