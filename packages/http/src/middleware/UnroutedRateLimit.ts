/**
 * Every v2 response to a recognised credential carries `RateLimit` (API-DECISIONS.md). The tenant
 * middleware counts and describes each request that reaches an operation; a request answered
 * before that — no such route (404), another method (405), a body too large (413), not JSON
 * (415), a request that breaks a request-wide rule — never met it. For such an error answer this
 * module authenticates the credential after the fact and, when it is known, counts the request
 * against its budget (every request of a known credential counts) and adds the field. The answer
 * itself stays what it was. An unknown credential is spent against its address like any failed
 * authentication, and gets nothing; a store that cannot answer leaves the answer as it was.
 */
import { HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { Auth } from "@costline/core"
import { Effect, Option } from "effect"
import { AuthFailureGate } from "./AuthFailureLimit.js"
import * as RequestFiber from "../routing/RequestFiber.js"
import { appliesTo, decisionValue, HEADER, RateLimitGate } from "./RateLimit.js"

const SETTLED: ReadonlySet<number> = new Set([401, 429, 503])

/** `enabled`: whether a rate limit is in force (else nothing is looked up). */
export const make = (enabled: boolean) => Effect.gen(function*() {
  const auth = yield* Auth.Auth
  const gate = yield* RateLimitGate
  const failures = yield* AuthFailureGate

  const describe = (request: HttpServerRequest.HttpServerRequest, response: HttpServerResponse.HttpServerResponse) =>
    Effect.gen(function*() {
      yield* failures.check
      const principal = yield* auth.authenticate(request.headers.authorization).pipe(
        Effect.tapErrorTag("Unauthorized", () => failures.record)
      )
      const decision = yield* gate.count(principal)
      return Option.match(decision, {
        onNone: () => response,
        onSome: (decided) => HttpServerResponse.setHeader(response, HEADER, decisionValue(decided))
      })
    }).pipe(
      Effect.orElseSucceed(() => response),
      Effect.provideService(HttpServerRequest.HttpServerRequest, request)
    )

  /**
   * The response, with `RateLimit` when it is a v2 error that the tenant middleware never counted.
   * Not after a 401, 429 or 503: the credential was already looked up (and its failure spent), the
   * address or credential is over budget, or the store cannot answer.
   */
  return (
    request: HttpServerRequest.HttpServerRequest,
    response: HttpServerResponse.HttpServerResponse,
    facts: RequestFiber.Facts
  ): Effect.Effect<HttpServerResponse.HttpServerResponse> =>
    !enabled || facts.counted || response.status < 400 || SETTLED.has(response.status) ||
      request.headers.authorization === undefined || !appliesTo(request.url)
      ? Effect.succeed(response)
      : describe(request, response)
})
