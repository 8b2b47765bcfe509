/**
 * v1 errors, shaped like FastAPI's: validation → 422 `{ detail: [{ type, loc, msg, input }] }`
 * with pydantic's type names, anything else → `{ detail: "<message>" }`.
 */
import { HttpServerResponse } from "@effect/platform"
import type { ExpectedType, HttpFailure, RequestIssue } from "./Problem.js"
import { PROBLEMS } from "./Problem.js"

const TYPE_BY_ISSUE: Readonly<Record<string, string>> = {
  missing: "missing",
  unexpected: "extra_forbidden",
  invalid_enum: "enum"
}

const TYPE_BY_EXPECTED: Readonly<Record<ExpectedType, string>> = {
  string: "string_type",
  boolean: "bool_type",
  number: "float_type",
  object: "dict_type",
  array: "list_type"
}

/** pydantic's name for the problem; `value_error` for every rule of our own. */
export const pydanticType = (issue: RequestIssue): string =>
  TYPE_BY_ISSUE[issue.issue] ??
    (issue.issue === "invalid_type" && issue.expected !== undefined ? TYPE_BY_EXPECTED[issue.expected] : "value_error")

const validationItem = (issue: RequestIssue) => ({
  type: pydanticType(issue),
  loc: [issue.location, ...issue.path.map((key) => typeof key === "number" ? key : String(key))],
  msg: issue.message,
  ...("input" in issue ? { input: issue.input } : {})
})

export const body = (failure: HttpFailure) =>
  failure.code === "validation_failed" && failure.issues.length > 0
    ? { detail: failure.issues.map(validationItem) }
    : { detail: failure.detail }

export const render = (failure: HttpFailure): HttpServerResponse.HttpServerResponse =>
  HttpServerResponse.unsafeJson(body(failure), { status: PROBLEMS[failure.code].status, headers: failure.headers })
