import { Errors, QueryAnalysis } from "@costline/core"
import { describe, expect, it } from "@effect/vitest"
import { fromDomainError, fromFieldIssue, isDomainError, MODEL_RETRY_AFTER_SECONDS } from "../../src/errors/Classify.js"
import { PROBLEMS } from "../../src/errors/Problem.js"

const statusOf = (error: Errors.DomainError) => PROBLEMS[fromDomainError(error).code].status

describe("fromDomainError", () => {
  it.each<readonly [Errors.DomainError, number, string]>([
    [Errors.ValidationFailed.single("name", "empty", "must not be empty"), 422, "validation_failed"],
    [new Errors.BadRequest({ message: "bad" }), 400, "bad_request"],
    [new Errors.InvalidPageToken({ message: "bad token" }), 400, "invalid_page_token"],
    [new Errors.Unauthorized({ message: "who?" }), 401, "unauthorized"],
    [new Errors.Forbidden({ message: "no" }), 403, "forbidden"],
    [new Errors.NotFound({ resource: "team", id: "t1" }), 404, "not_found"],
    [new Errors.AlreadyExists({ message: "twice" }), 409, "already_exists"],
    [new Errors.Conflict({ message: "busy" }), 409, "conflict"],
    [new Errors.InvalidTransition({ from: "open", to: "open" }), 409, "invalid_transition"],
    [new Errors.PreconditionFailed({ message: "stale" }), 412, "precondition_failed"],
    [new Errors.PreconditionRequired({ message: "If-Match" }), 428, "precondition_required"],
    [new Errors.RateLimited({ retryAfterSeconds: 1 }), 429, "rate_limited"],
    [new Errors.StoreUnavailable({ message: "down" }), 503, "unavailable"]
  ])("maps %s to %i %s", (error, status, code) => {
    expect(statusOf(error)).toBe(status)
    expect(fromDomainError(error).code).toBe(code)
  })

  it("uses the error's message as the detail", () => {
    expect(fromDomainError(new Errors.NotFound({ resource: "team", id: "t1" })).detail).toBe("team t1 not found")
  })

  it("asks a client to retry a rate-limited call after whole seconds, at least one", () => {
    expect(fromDomainError(new Errors.RateLimited({ retryAfterSeconds: 2.1 })).headers).toEqual({ "retry-after": "3" })
    expect(fromDomainError(new Errors.RateLimited({ retryAfterSeconds: 0 })).headers).toEqual({ "retry-after": "1" })
  })

  it("never shows what the store said", () => {
    const failure = fromDomainError(new Errors.StoreUnavailable({ message: "ECONNREFUSED db.internal:5432" }))
    expect(failure.detail).not.toContain("db.internal")
    expect(failure.headers).toEqual({ "retry-after": "1" })
  })

  it("challenges for a bearer token on 401", () => {
    expect(fromDomainError(new Errors.Unauthorized({ message: "x" })).headers).toEqual({ "www-authenticate": "Bearer" })
  })
})

describe("fromDomainError, for query analysis's failures", () => {
  it("an unavailable model is a 503 with the provider's Retry-After, else the default", () => {
    const asked = fromDomainError(new QueryAnalysis.ModelUnavailable({ reason: "rate_limited", message: "busy", retryAfterSeconds: 7 }))
    expect(asked).toMatchObject({ code: "unavailable", detail: "busy", headers: { "retry-after": "7" } })
    expect(PROBLEMS[asked.code].status).toBe(503)
    const unasked = fromDomainError(new QueryAnalysis.ModelUnavailable({ reason: "timeout", message: "slow" }))
    expect(unasked.headers).toEqual({ "retry-after": String(MODEL_RETRY_AFTER_SECONDS) })
  })

  it("busy analysis workers are a 503 with their Retry-After", () => {
    const busy = fromDomainError(new QueryAnalysis.AnalysisBusy({ message: "every worker is busy", retryAfterSeconds: 1 }))
    expect(busy).toMatchObject({ code: "unavailable", detail: "every worker is busy", headers: { "retry-after": "1" } })
    expect(PROBLEMS[busy.code].status).toBe(503)
  })

  it("unusable model output is a 502 bad_gateway with the reason", () => {
    const failure = fromDomainError(new QueryAnalysis.ModelOutputInvalid({ message: "the suggestion does not parse" }))
    expect(failure).toMatchObject({ code: "bad_gateway", detail: "the suggestion does not parse" })
    expect(PROBLEMS[failure.code].status).toBe(502)
  })
})

describe("fromFieldIssue", () => {
  const issue = (field: string) => fromFieldIssue(new Errors.FieldIssue({ field, issue: "invalid", message: "m" }))

  it("reads the location from the first segment", () => {
    expect(issue("query.max_results")).toMatchObject({ location: "query", path: ["max_results"] })
    expect(issue("header.x-tenant-id")).toMatchObject({ location: "header", path: ["x-tenant-id"] })
    expect(issue("path.organization_id")).toMatchObject({ location: "path", path: ["organization_id"] })
  })

  it("takes a field without a location for a body field, with array indexes as numbers", () => {
    expect(issue("filters[2].value")).toMatchObject({ location: "body", path: ["filters", 2, "value"] })
    expect(issue("name")).toMatchObject({ location: "body", path: ["name"] })
    expect(issue("body.name")).toMatchObject({ location: "body", path: ["name"] })
  })
})

describe("isDomainError", () => {
  it("recognises core's errors only", () => {
    expect(isDomainError(new Errors.Forbidden({ message: "no" }))).toBe(true)
    expect(isDomainError({ _tag: "Something" })).toBe(false)
    expect(isDomainError(new Error("x"))).toBe(false)
    expect(isDomainError(null)).toBe(false)
  })
})
