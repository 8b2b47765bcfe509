/** Maps every failure the API can report to its HTTP description. Pure. */
import type { Attribution, Errors, QueryAnalysis } from "@costline/core"
import { Predicate } from "effect"
import {
  failure,
  fieldName,
  type HttpFailure,
  LOCATIONS,
  type Location,
  type ProblemCode,
  type RequestIssue
} from "./Problem.js"
import type { RequestRejection } from "./RequestErrors.js"

/** A store outage is usually brief; clients may retry after this long. */
export const STORE_RETRY_AFTER_SECONDS = 1

/** When the model provider gave no Retry-After of its own. */
export const MODEL_RETRY_AFTER_SECONDS = 5

/**
 * Every typed failure a handler may report: the domain's, query analysis's (the language model's,
 * busy analysis workers), and an attribution's deadline.
 */
export type ApiError =
  | Errors.DomainError
  | QueryAnalysis.ModelUnavailable
  | QueryAnalysis.ModelOutputInvalid
  | QueryAnalysis.AnalysisBusy
  | Attribution.AttributionTimedOut

/**
 * Core addresses fields as `query.max_results`, `filters[2].value` or plain `name`; a field with
 * no location prefix is a body field, since that is where services' inputs come from.
 */
export const fromFieldIssue = (issue: Errors.FieldIssue): RequestIssue => {
  const segments = Array.from(
    issue.field.matchAll(/([^.[\]]+)|\[(\d+)\]/g),
    ([, name, index]): PropertyKey => index === undefined ? name! : Number(index)
  )
  const [first, ...rest] = segments
  const located = LOCATIONS.includes(first as Location)
  return {
    location: located ? first as Location : "body",
    path: located ? rest : segments,
    issue: issue.issue,
    message: issue.message
  }
}

/** The problem code of each domain error; its HTTP status follows from `PROBLEMS`. */
export const DOMAIN_CODES = {
  ValidationFailed: "validation_failed",
  BadRequest: "bad_request",
  InvalidPageToken: "invalid_page_token",
  Unauthorized: "unauthorized",
  Forbidden: "forbidden",
  NotFound: "not_found",
  AlreadyExists: "already_exists",
  Conflict: "conflict",
  InvalidTransition: "invalid_transition",
  PreconditionFailed: "precondition_failed",
  PreconditionRequired: "precondition_required",
  RateLimited: "rate_limited",
  StoreUnavailable: "unavailable",
  ModelUnavailable: "unavailable",
  ModelOutputInvalid: "bad_gateway",
  AnalysisBusy: "unavailable",
  AttributionTimedOut: "unavailable"
} as const satisfies Record<ApiError["_tag"], ProblemCode>

export const isDomainError = (u: unknown): u is ApiError =>
  Predicate.hasProperty(u, "_tag") && typeof u._tag === "string" && Object.hasOwn(DOMAIN_CODES, u._tag)

export const fromDomainError = (error: ApiError): HttpFailure => {
  const code = DOMAIN_CODES[error._tag]
  switch (error._tag) {
    case "ValidationFailed":
      return failure(code, error.message, { issues: error.details.map(fromFieldIssue) })
    case "Unauthorized":
      // One body and one header for every way a credential can be wrong.
      return failure(code, error.message, { headers: { "www-authenticate": "Bearer" } })
    case "RateLimited":
      return failure(code, error.message, {
        headers: { "retry-after": String(Math.max(1, Math.ceil(error.retryAfterSeconds))) }
      })
    case "StoreUnavailable":
      // The store's own message may name hosts or SQL: never shown.
      return failure(code, "the service is temporarily unavailable, retry later", {
        headers: { "retry-after": String(STORE_RETRY_AFTER_SECONDS) }
      })
    case "ModelUnavailable":
      // The message names the cause (timeout, HTTP status), never the provider's URL or key.
      return failure(code, error.message, {
        headers: { "retry-after": String(Math.max(1, Math.ceil(error.retryAfterSeconds ?? MODEL_RETRY_AFTER_SECONDS))) }
      })
    case "AnalysisBusy":
      return failure(code, error.message, { headers: { "retry-after": String(Math.max(1, Math.ceil(error.retryAfterSeconds))) } })
    case "AttributionTimedOut":
      // No Retry-After: the same month would most likely take as long again.
      return failure(
        code,
        `${error.message}; retry when the service is less busy, or have the attribution timeout raised`
      )
    default:
      return failure(code, error.message)
  }
}

const REJECTION_TAGS: ReadonlySet<string> = new Set([
  "MethodNotAllowed",
  "PayloadTooLarge",
  "UnsupportedMediaType",
  "MalformedBody",
  "RequestTimeout"
] satisfies Array<RequestRejection["_tag"]>)

export const isRequestRejection = (u: unknown): u is RequestRejection =>
  Predicate.hasProperty(u, "_tag") && typeof u._tag === "string" && REJECTION_TAGS.has(u._tag)

export const fromRequestRejection = (error: RequestRejection): HttpFailure => {
  switch (error._tag) {
    case "MethodNotAllowed":
      return failure("method_not_allowed", error.message, { headers: { allow: error.allowed.join(", ") } })
    case "PayloadTooLarge":
      return failure("payload_too_large", error.message)
    case "UnsupportedMediaType":
      return failure("unsupported_media_type", error.message)
    case "MalformedBody":
      return failure("bad_request", error.message)
    case "RequestTimeout":
      // The rest of the body may still come: the connection cannot carry another request.
      return failure("request_timeout", error.message, { headers: { connection: "close" } })
  }
}

/** One issue is named in the detail; several are counted there and listed in `details`. */
export const validationFailure = (issues: ReadonlyArray<RequestIssue>): HttpFailure => {
  const fields = [...new Set(issues.map(fieldName))]
  const detail = issues.length === 1
    ? `${fields[0]}: ${issues[0]!.message}`
    : `${fields.length === 1 ? "1 field is" : `${fields.length} fields are`} invalid: ${fields.join(", ")}`
  return failure("validation_failed", detail, { issues })
}

export const routeNotFound = (method: string, path: string): HttpFailure =>
  failure("not_found", `no route for ${method} ${path}`)

export const internal: HttpFailure = failure("internal", "an unexpected error occurred; it has been logged")
