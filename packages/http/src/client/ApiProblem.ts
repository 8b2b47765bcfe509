/**
 * What a client sees when the API answers with an error, in either version: the status, the
 * problem code, the message, the invalid fields, the request id and, for 429/503, how long to
 * wait. v2 problem details carry all of it; a v1 FastAPI `detail` is mapped onto the same shape.
 */
import type { HttpClientResponse } from "@effect/platform"
import { Effect, Schema } from "effect"
import { PROBLEMS } from "../errors/Problem.js"

export class ProblemField extends Schema.Class<ProblemField>("ProblemField")({
  field: Schema.String,
  issue: Schema.String,
  message: Schema.String
}) {}

export class ApiProblem extends Schema.TaggedError<ApiProblem>()("ApiProblem", {
  status: Schema.Number,
  /** A problem code of API-DECISIONS.md (`not_found`, `rate_limited`, ...). */
  code: Schema.String,
  detail: Schema.String,
  details: Schema.Array(ProblemField),
  requestId: Schema.NullOr(Schema.String),
  /** From `Retry-After`, when the server sent one. */
  retryAfterSeconds: Schema.NullOr(Schema.Number)
}) {
  override get message() {
    return `${this.status} ${this.code}: ${this.detail}`
  }

  /** Worth retrying later: rate limited, or the server's store is unavailable. */
  get transient(): boolean {
    return this.status === 429 || this.status === 503
  }
}

const ProblemBody = Schema.Struct({
  code: Schema.String,
  detail: Schema.String,
  details: Schema.optionalWith(Schema.Array(ProblemField), { default: () => [] }),
  request_id: Schema.optional(Schema.String)
})

const FastApiBody = Schema.Struct({
  detail: Schema.Union(
    Schema.String,
    Schema.Array(Schema.Struct({ loc: Schema.Array(Schema.Union(Schema.String, Schema.Number)), msg: Schema.String, type: Schema.String }))
  )
})

/** v1 bodies carry no code: the first code of the status stands for it. */
const codeOfStatus = (status: number): string =>
  Object.entries(PROBLEMS).find(([, problem]) => problem.status === status)?.[0] ?? "unknown"

const describe = (status: number, body: unknown) => {
  const problem = Schema.decodeUnknownOption(ProblemBody)(body)
  if (problem._tag === "Some") {
    const { code, detail, details, request_id } = problem.value
    return { code, detail, details, requestId: request_id ?? null }
  }
  const fastApi = Schema.decodeUnknownOption(FastApiBody)(body)
  if (fastApi._tag === "Some") {
    const { detail } = fastApi.value
    return typeof detail === "string"
      ? { code: codeOfStatus(status), detail, details: [], requestId: null }
      : {
        code: codeOfStatus(status),
        detail: detail.map((item) => item.msg).join("; "),
        details: detail.map((item) => new ProblemField({ field: item.loc.join("."), issue: item.type, message: item.msg })),
        requestId: null
      }
  }
  return { code: codeOfStatus(status), detail: `HTTP ${status}`, details: [], requestId: null }
}

export const fromResponse = (response: HttpClientResponse.HttpClientResponse): Effect.Effect<ApiProblem> =>
  Effect.map(Effect.orElseSucceed(response.json, () => undefined), (body) => {
    const described = describe(response.status, body)
    const retryAfter = Number(response.headers["retry-after"])
    return new ApiProblem({
      status: response.status,
      ...described,
      requestId: described.requestId ?? response.headers["x-request-id"] ?? null,
      retryAfterSeconds: Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : null
    })
  })
