/**
 * What the framework cannot declare, written once: the error bodies of each version (problem
 * details for v2, FastAPI `detail` for v1), the response headers the pipeline adds, the request
 * headers the middlewares read, and the bearer security scheme. Operations refer to them by `$ref`.
 */
import { PROBLEMS, type ProblemCode } from "../errors/Problem.js"
import { problemType } from "../errors/ProblemJson.js"
import * as RequestId from "../middleware/RequestId.js"
import type { Header, JsonSchema, Parameter, Reference } from "./Types.js"

export const SECURITY_SCHEME = "bearer"
/**
 * The `x-tenant-id` header, also described as a credential: a client (openapi-fetch, Swagger UI's
 * Authorize) sets it once instead of on every call. The wire is the same header (v2 only).
 */
export const TENANT_SCHEME = "tenant"

export const securitySchemes: Record<string, JsonSchema> = {
  [TENANT_SCHEME]: {
    type: "apiKey",
    in: "header",
    name: "x-tenant-id",
    description: "The organization every v2 request is for; it must be the credential's own. Required on every " +
      "v2 request: set it once here (or in your client's default headers) or per call as the `x-tenant-id` parameter."
  },
  [SECURITY_SCHEME]: {
    type: "http",
    scheme: "bearer",
    bearerFormat: "clk_… (API key) or cls_… (user session)",
    description: "An API key (`costline keys create`) or a user session token (`costline sessions create`), " +
      "sent as `Authorization: Bearer <token>`. Every way a token can be wrong answers the same 401."
  }
}

const ref = (kind: "schemas" | "headers" | "parameters", name: string): Reference => ({
  $ref: `#/components/${kind}/${name}`
})
export const schemaRef = (name: string) => ref("schemas", name)
export const headerRef = (name: string) => ref("headers", name)
export const parameterRef = (name: string) => ref("parameters", name)

// ---- error bodies ----------------------------------------------------------------------------

export const PROBLEM = "Problem"
export const HTTP_ERROR = "HTTPError"
export const HTTP_VALIDATION_ERROR = "HTTPValidationError"

export const errorSchemas: Record<string, JsonSchema> = {
  [PROBLEM]: {
    type: "object",
    description: "An error (RFC 9457 problem details, `application/problem+json`) with a stable `code` and, " +
      "for invalid requests, one entry per invalid field in `details`.",
    required: ["type", "title", "status", "detail", "code", "details", "request_id"],
    properties: {
      type: { type: "string", description: "`urn:costline:problem:<code>`", examples: [problemType("not_found")] },
      title: { type: "string" },
      status: { type: "integer", minimum: 400, maximum: 599 },
      detail: { type: "string" },
      code: { type: "string", enum: Object.keys(PROBLEMS) },
      details: { type: "array", items: schemaRef("ProblemDetail") },
      request_id: { type: "string" }
    },
    additionalProperties: false
  },
  ProblemDetail: {
    type: "object",
    description: "One invalid field: `body.name`, `query.max_results`, `header.x-tenant-id`, `path.team_id`.",
    required: ["field", "issue", "message"],
    properties: {
      field: { type: "string" },
      issue: { type: "string", examples: ["missing", "invalid_type", "invalid_enum", "invalid_value", "unexpected"] },
      message: { type: "string" }
    },
    additionalProperties: false
  },
  [HTTP_ERROR]: {
    type: "object",
    description: "A v1 error other than validation (FastAPI style).",
    required: ["detail"],
    properties: { detail: { type: "string" } },
    additionalProperties: false
  },
  [HTTP_VALIDATION_ERROR]: {
    type: "object",
    description: "A v1 validation error (FastAPI/pydantic style): one item per invalid field.",
    required: ["detail"],
    properties: { detail: { type: "array", items: schemaRef("ValidationError") } },
    additionalProperties: false
  },
  ValidationError: {
    type: "object",
    required: ["type", "loc", "msg"],
    properties: {
      type: { type: "string", examples: ["missing", "string_type", "enum", "value_error"] },
      loc: { type: "array", items: { anyOf: [{ type: "string" }, { type: "integer" }] }, examples: [["body", "name"]] },
      msg: { type: "string" },
      input: { description: "The value received; for a missing field, the object that lacks it." },
      url: { type: "string" }
    },
    additionalProperties: false
  }
}

/** What each error status means, whatever the operation. */
const ERROR_DESCRIPTIONS: Readonly<Record<number, string>> = {
  400: "Malformed request: the body is not JSON, or a page token is invalid",
  401: "Missing or invalid credentials",
  403: "The credential may not do this, or belongs to another organization",
  404: "No such resource in this organization",
  405: "The path exists, but not with this method: see `Allow`",
  408: "The request body did not arrive within the read timeout",
  409: "Conflicts with the current state",
  412: "`If-Match` does not match the current ETag",
  413: "The request body is larger than the limit (1 MiB by default)",
  415: "The request body is not `application/json`",
  422: "The request is not valid: see `details` (v2) or `detail` (v1)",
  428: "`If-Match` is required",
  429: "Rate limit exceeded: retry after `Retry-After` seconds",
  500: "Unexpected error; it has been logged",
  503: "A service the API depends on is unavailable: retry after `Retry-After` seconds"
}

/** The first problem code with this status: what an example of the status shows. */
const codeOf = (status: number): ProblemCode | undefined =>
  (Object.keys(PROBLEMS) as Array<ProblemCode>).find((code) => PROBLEMS[code].status === status)

/** Statuses areas add later (a 502 from a model provider) fall back to their problem's title. */
export const errorDescription = (status: number): string => {
  const code = codeOf(status)
  return ERROR_DESCRIPTIONS[status] ?? (code === undefined ? "Error" : PROBLEMS[code].title)
}

const EXAMPLE_REQUEST_ID = "5b0d8a4e-3c1f-4a57-9a43-0c6f1f2f7d11"

export const problemExample = (status: number) => {
  const code = codeOf(status) ?? "internal"
  const invalid = status === 422
  return {
    type: problemType(code),
    title: PROBLEMS[code].title,
    status: PROBLEMS[code].status,
    detail: invalid ? "body.name: is required" : errorDescription(status),
    code,
    details: invalid ? [{ field: "body.name", issue: "missing", message: "is required" }] : [],
    request_id: EXAMPLE_REQUEST_ID
  }
}

export const fastApiExample = (status: number) =>
  status === 422
    ? { detail: [{ type: "missing", loc: ["body", "name"], msg: "is required", input: {} }] }
    : { detail: errorDescription(status) }

// ---- headers -----------------------------------------------------------------------------------

export const HEADERS = {
  requestId: "X-Request-Id",
  rateLimitPolicy: "RateLimit-Policy",
  rateLimit: "RateLimit",
  retryAfter: "Retry-After",
  deprecation: "Deprecation",
  sunset: "Sunset",
  link: "Link",
  location: "Location",
  etag: "ETag",
  wwwAuthenticate: "WWW-Authenticate"
} as const

/** A response header: a string unless said otherwise. */
const header = (description: string, example: unknown, schema: JsonSchema = { type: "string" }): Header => ({
  description,
  schema,
  example
})

export const headers: Record<string, Header> = {
  [HEADERS.requestId]: header(
    "The request's id: the caller's `x-request-id` when it is a sane token, else a new UUID. " +
      "Also in error bodies and in the audit records the request writes.",
    EXAMPLE_REQUEST_ID
  ),
  [HEADERS.rateLimitPolicy]: header(
    "The credential's rate-limit policy (draft-ietf-httpapi-ratelimit-headers): `q` requests at once, " +
      "earned back within `w` seconds.",
    "\"default\";q=100;w=2"
  ),
  [HEADERS.rateLimit]: header(
    "What is left of the credential's budget: `r` requests now, whole again in `t` seconds.",
    "\"default\";r=97;t=1"
  ),
  [HEADERS.retryAfter]: header("Seconds to wait before retrying.", 1, { type: "integer", minimum: 1 }),
  [HEADERS.deprecation]: header("When v1 was deprecated (RFC 9745).", "@1767225600"),
  [HEADERS.sunset]: header("When v1 stops being served (RFC 8594).", "Fri, 01 Jan 2027 00:00:00 GMT"),
  [HEADERS.link]: header(
    "The v2 replacement of this operation, as `rel=\"successor-version\"` (where there is one).",
    "</v2/teams>; rel=\"successor-version\""
  ),
  [HEADERS.location]: header("The URL of the created resource.", "/v2/teams/0b6f2c1e-8a53-4c2e-9d6a-1f0e4b1c2d3e"),
  [HEADERS.etag]: header(
    "Strong validator of the resource's state; send it back in `If-Match` to update.",
    "\"q1w2e3r4t5y6u7i8o9p0aa\""
  ),
  [HEADERS.wwwAuthenticate]: header("The authentication scheme to use.", "Bearer")
}

// ---- request headers -----------------------------------------------------------------------------

export const PARAMETERS = {
  tenant: "TenantId",
  requestId: "RequestId",
  ifMatch: "IfMatch",
  ifMatchRequired: "IfMatchRequired"
} as const

/** Where the operation answers 428 without it. */
export const IF_MATCH_REQUIRED = "The ETag of the resource as last read (`*` matches any). Required: without it " +
  "the change fails with 428; with a stale one, with 412."

const IF_MATCH: Parameter = {
  name: "if-match",
  in: "header",
  required: false,
  description: "The ETag the change is based on (`*` matches any); a stale one fails with 412.",
  schema: { type: "string" },
  example: "\"q1w2e3r4t5y6u7i8o9p0aa\""
}

export const parameters: Record<string, Parameter> = {
  [PARAMETERS.tenant]: {
    name: "x-tenant-id",
    in: "header",
    // Required by the `tenant` security requirement of every v2 operation: a parameter marked
    // required here would make generated clients demand it on every call.
    required: false,
    description: "The organization the request is for; it must be the credential's own. The server requires it " +
      "on every v2 request (see the `tenant` security scheme, which sets it once for all calls).",
    schema: { type: "string", minLength: 1 },
    example: "acme"
  },
  [PARAMETERS.requestId]: {
    name: RequestId.HEADER,
    in: "header",
    required: false,
    description: "A correlation id to use for this request (echoed, stored in audit records).",
    schema: { type: "string", pattern: "^[A-Za-z0-9._:@/+=-]{1,128}$" },
    example: "deploy-2024-05-01-42"
  },
  [PARAMETERS.ifMatch]: IF_MATCH,
  [PARAMETERS.ifMatchRequired]: { ...IF_MATCH, required: true, description: IF_MATCH_REQUIRED }
}
