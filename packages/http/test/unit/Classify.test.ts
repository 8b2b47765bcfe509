import {
  AlreadyExists,
  BadRequest,
  Conflict,
  type DomainError,
  FieldIssue,
  Forbidden,
  InvalidPageToken,
  InvalidTransition,
  ModelOutputInvalid,
  ModelUnavailable,
  NotFound,
  PreconditionFailed,
  PreconditionRequired,
  RateLimited,
  StoreUnavailable,
  Unauthorized,
  ValidationFailed
} from "@costline/core"
import { describe, expect, it } from "@effect/vitest"
import { fromDomainError, fromFieldIssue, isDomainError, MODEL_RETRY_AFTER_SECONDS } from "../../src/errors/Classify.js"
import { PROBLEMS } from "../../src/errors/Problem.js"

const statusOf = (error: DomainError) => PROBLEMS[fromDomainError(error).code].status

describe("fromDomainError", () => {
  it.each<readonly [DomainError, number, string]>([
    [ValidationFailed.single("name", "empty", "must not be empty"), 422, "validation_failed"],
    [new BadRequest({ message: "bad" }), 400, "bad_request"],
    [new InvalidPageToken({ message: "bad token" }), 400, "invalid_page_token"],
    [new Unauthorized({ message: "who?" }), 401, "unauthorized"],
    [new Forbidden({ message: "no" }), 403, "forbidden"],
    [new NotFound({ resource: "team", id: "t1" }), 404, "not_found"],
    [new AlreadyExists({ message: "twice" }), 409, "already_exists"],
    [new Conflict({ message: "busy" }), 409, "conflict"],
    [new InvalidTransition({ from: "open", to: "open" }), 409, "invalid_transition"],
    [new PreconditionFailed({ message: "stale" }), 412, "precondition_failed"],
    [new PreconditionRequired({ message: "If-Match" }), 428, "precondition_required"],
    [new RateLimited({ retryAfterSeconds: 1 }), 429, "rate_limited"],
    [new StoreUnavailable({ message: "down" }), 503, "unavailable"]
  ])("maps %s to %i %s", (error, status, code) => {
    expect(statusOf(error)).toBe(status)
    expect(fromDomainError(error).code).toBe(code)
  })

  it("uses the error's message as the detail", () => {
    expect(fromDomainError(new NotFound({ resource: "team", id: "t1" })).detail).toBe("team t1 not found")
  })

  it("asks a client to retry a rate-limited call after whole seconds, at least one", () => {
    expect(fromDomainError(new RateLimited({ retryAfterSeconds: 2.1 })).headers).toEqual({ "retry-after": "3" })
    expect(fromDomainError(new RateLimited({ retryAfterSeconds: 0 })).headers).toEqual({ "retry-after": "1" })
  })

  it("never shows what the store said", () => {
    const failure = fromDomainError(new StoreUnavailable({ message: "ECONNREFUSED db.internal:5432" }))
    expect(failure.detail).not.toContain("db.internal")
    expect(failure.headers).toEqual({ "retry-after": "1" })
  })

  it("challenges for a bearer token on 401", () => {
    expect(fromDomainError(new Unauthorized({ message: "x" })).headers).toEqual({ "www-authenticate": "Bearer" })
  })
})

describe("fromDomainError, for the language model's failures", () => {
  it("an unavailable model is a 503 with the provider's Retry-After, else the default", () => {
    const asked = fromDomainError(new ModelUnavailable({ reason: "rate_limited", message: "busy", retryAfterSeconds: 7 }))
    expect(asked).toMatchObject({ code: "unavailable", detail: "busy", headers: { "retry-after": "7" } })
    expect(PROBLEMS[asked.code].status).toBe(503)
    const unasked = fromDomainError(new ModelUnavailable({ reason: "timeout", message: "slow" }))
    expect(unasked.headers).toEqual({ "retry-after": String(MODEL_RETRY_AFTER_SECONDS) })
  })

  it("unusable model output is a 502 bad_gateway with the reason", () => {
    const failure = fromDomainError(new ModelOutputInvalid({ message: "the suggestion does not parse" }))
    expect(failure).toMatchObject({ code: "bad_gateway", detail: "the suggestion does not parse" })
    expect(PROBLEMS[failure.code].status).toBe(502)
  })
})

describe("fromFieldIssue", () => {
  const issue = (field: string) => fromFieldIssue(new FieldIssue({ field, issue: "invalid", message: "m" }))

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
    expect(isDomainError(new Forbidden({ message: "no" }))).toBe(true)
    expect(isDomainError({ _tag: "Something" })).toBe(false)
    expect(isDomainError(new Error("x"))).toBe(false)
    expect(isDomainError(null)).toBe(false)
  })
})
