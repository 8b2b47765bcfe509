/** v2 errors: RFC 9457 problem details with the code and field issues of API-DECISIONS.md. */
import type { HttpServerResponse } from "@effect/platform"
import { fieldName, type HttpFailure, PROBLEMS } from "./Problem.js"
import * as JsonBody from "../api/JsonBody.js"

export const CONTENT_TYPE = "application/problem+json"

/** Problem types are URNs: stable names that promise no document at a URL. */
export const problemType = (code: string) => `urn:costline:problem:${code}`

export const body = (failure: HttpFailure, requestId: string) => ({
  type: problemType(failure.code),
  title: PROBLEMS[failure.code].title,
  status: PROBLEMS[failure.code].status,
  detail: failure.detail,
  code: failure.code,
  details: failure.issues.map((issue) => ({ field: fieldName(issue), issue: issue.issue, message: issue.message })),
  request_id: requestId
})

export const render = (failure: HttpFailure, requestId: string): HttpServerResponse.HttpServerResponse =>
  JsonBody.unsafeJson(body(failure, requestId), {
    status: PROBLEMS[failure.code].status,
    contentType: CONTENT_TYPE,
    headers: failure.headers
  })
