/**
 * The version-neutral description of a failed request: what every renderer (v2 problem+json,
 * v1 FastAPI `detail`) works from. Codes and statuses are those of API-DECISIONS.md.
 */
export const PROBLEMS = {
  bad_request: { status: 400, title: "Bad request" },
  invalid_page_token: { status: 400, title: "Invalid page token" },
  unauthorized: { status: 401, title: "Unauthorized" },
  forbidden: { status: 403, title: "Forbidden" },
  not_found: { status: 404, title: "Not found" },
  method_not_allowed: { status: 405, title: "Method not allowed" },
  request_timeout: { status: 408, title: "Request timeout" },
  conflict: { status: 409, title: "Conflict" },
  already_exists: { status: 409, title: "Already exists" },
  invalid_transition: { status: 409, title: "Invalid transition" },
  precondition_failed: { status: 412, title: "Precondition failed" },
  payload_too_large: { status: 413, title: "Payload too large" },
  unsupported_media_type: { status: 415, title: "Unsupported media type" },
  expectation_failed: { status: 417, title: "Expectation failed" },
  validation_failed: { status: 422, title: "Validation failed" },
  precondition_required: { status: 428, title: "Precondition required" },
  rate_limited: { status: 429, title: "Rate limited" },
  headers_too_large: { status: 431, title: "Request header fields too large" },
  internal: { status: 500, title: "Internal error" },
  /** An upstream the request depends on (the language model) answered with something unusable. */
  bad_gateway: { status: 502, title: "Bad gateway" },
  unavailable: { status: 503, title: "Service unavailable" }
} as const satisfies Record<string, { readonly status: number; readonly title: string }>

export type ProblemCode = keyof typeof PROBLEMS

/** Where in the request a field lives; the first segment of `body.name`, `query.max_results`. */
export type Location = "body" | "query" | "path" | "header"

export const LOCATIONS: ReadonlyArray<Location> = ["body", "query", "path", "header"]

/**
 * What went wrong with one field, as request decoding reports it. `invalid_enum` is a value
 * outside a closed set; `unexpected` a field the schema forbids. Core services may report more
 * specific codes (`out_of_range`, ...), so an issue's code is an open string.
 */
export type IssueKind = "missing" | "unexpected" | "invalid_type" | "invalid_enum" | "invalid_value"

/** The JSON type a field should have had, when the issue is `invalid_type`. */
export type ExpectedType = "string" | "boolean" | "number" | "object" | "array"

export interface RequestIssue {
  readonly location: Location
  /** Inside the location: `["name"]`, `["filters", 2, "value"]`; empty for the body as a whole. */
  readonly path: ReadonlyArray<PropertyKey>
  readonly issue: IssueKind | (string & {})
  readonly expected?: ExpectedType | undefined
  readonly message: string
  /** The value received there; for a missing field, the object that lacks it (v1 echoes it). */
  readonly input?: unknown
}

export interface HttpFailure {
  readonly code: ProblemCode
  readonly detail: string
  readonly issues: ReadonlyArray<RequestIssue>
  /** Headers the failure calls for: `WWW-Authenticate`, `Retry-After`, `Allow`. */
  readonly headers: Readonly<Record<string, string>>
}

export const failure = (
  code: ProblemCode,
  detail: string,
  extra: { readonly issues?: ReadonlyArray<RequestIssue>; readonly headers?: Record<string, string> } = {}
): HttpFailure => ({ code, detail, issues: extra.issues ?? [], headers: extra.headers ?? {} })

/** `body.name`, `body.filters[2].value`, `header.x-tenant-id`; `body` for the body as a whole. */
export const fieldName = (issue: Pick<RequestIssue, "location" | "path">): string =>
  issue.path.reduce<string>(
    (name, key) => typeof key === "number" ? `${name}[${key}]` : `${name}.${String(key)}`,
    issue.location
  )
