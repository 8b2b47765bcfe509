/**
 * v1 errors, shaped like FastAPI's: validation → 422 `{ detail: [{ type, loc, msg, input, url? }] }`
 * with pydantic's type names, anything else → `{ detail: "<message>" }`. As the spec says (Errors
 * 3 and 4): `loc` is an array of strings (an array position too: `["body", "roles", "1"]`), and
 * a missing field also carries `url`, a link explaining the kind. Every item has `input`; the
 * pipeline fills it in for issues that did not come from decoding (`IssueInputs`).
 */
import type { HttpServerResponse } from "@effect/platform"
import type { ExpectedType, HttpFailure, RequestIssue } from "./Problem.js"
import { PROBLEMS } from "./Problem.js"
import * as JsonBody from "../api/JsonBody.js"

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

/** pydantic's page about an error kind, as FastAPI links it. */
export const errorUrl = (type: string) => `https://errors.pydantic.dev/2.10/v/${type}`

const validationItem = (issue: RequestIssue) => {
  const type = pydanticType(issue)
  return {
    type,
    loc: [issue.location, ...issue.path.map(String)],
    msg: issue.message,
    input: "input" in issue ? issue.input : null,
    ...(type === "missing" ? { url: errorUrl(type) } : {})
  }
}

export const body = (failure: HttpFailure) =>
  failure.code === "validation_failed" && failure.issues.length > 0
    ? { detail: failure.issues.map(validationItem) }
    : { detail: failure.detail }

export const render = (failure: HttpFailure): HttpServerResponse.HttpServerResponse =>
  JsonBody.unsafeJson(body(failure), { status: PROBLEMS[failure.code].status, headers: failure.headers })
