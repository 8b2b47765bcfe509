import { describe, expect, it } from "@effect/vitest"
import * as FastApiDetail from "../../src/errors/FastApiDetail.js"
import { failure, fieldName, type RequestIssue } from "../../src/errors/Problem.js"
import * as ProblemJson from "../../src/errors/ProblemJson.js"

const issue = (overrides: Partial<RequestIssue>): RequestIssue => ({
  location: "body",
  path: ["name"],
  issue: "invalid_value",
  message: "m",
  ...overrides
})

describe("fieldName", () => {
  it("joins the location and the path with dots and brackets", () => {
    expect(fieldName(issue({ path: ["filters", 2, "value"] }))).toBe("body.filters[2].value")
    expect(fieldName(issue({ location: "header", path: ["x-tenant-id"] }))).toBe("header.x-tenant-id")
    expect(fieldName(issue({ path: [] }))).toBe("body")
  })
})

describe("problem+json (v2)", () => {
  it("carries the code, its status and title, every field issue and the request id", () => {
    const body = ProblemJson.body(
      failure("validation_failed", "name: m", { issues: [issue({ issue: "missing", message: "is required" })] }),
      "req-1"
    )
    expect(body).toEqual({
      type: "urn:costline:problem:validation_failed",
      title: "Validation failed",
      status: 422,
      detail: "name: m",
      code: "validation_failed",
      details: [{ field: "body.name", issue: "missing", message: "is required" }],
      request_id: "req-1"
    })
  })
})

describe("FastAPI detail (v1)", () => {
  it.each<readonly [Partial<RequestIssue>, string]>([
    [{ issue: "missing" }, "missing"],
    [{ issue: "unexpected" }, "extra_forbidden"],
    [{ issue: "invalid_enum" }, "enum"],
    [{ issue: "invalid_type", expected: "string" }, "string_type"],
    [{ issue: "invalid_type", expected: "boolean" }, "bool_type"],
    [{ issue: "invalid_type", expected: "number" }, "float_type"],
    [{ issue: "invalid_type", expected: "object" }, "dict_type"],
    [{ issue: "invalid_type", expected: "array" }, "list_type"],
    [{ issue: "invalid_type" }, "value_error"],
    [{ issue: "out_of_range" }, "value_error"]
  ])("names %o as pydantic does: %s", (overrides, type) => {
    expect(FastApiDetail.pydanticType(issue(overrides))).toBe(type)
  })

  it("lists validation issues with their location and the input received", () => {
    const body = FastApiDetail.body(failure("validation_failed", "x", {
      issues: [
        issue({ issue: "missing", message: "is required", input: { role: "admin" } }),
        issue({ location: "query", path: ["limit"], issue: "out_of_range", message: "too big" })
      ]
    }))
    expect(body).toEqual({
      detail: [
        { type: "missing", loc: ["body", "name"], msg: "is required", input: { role: "admin" }, url: "https://errors.pydantic.dev/2.10/v/missing" },
        { type: "value_error", loc: ["query", "limit"], msg: "too big", input: null }
      ]
    })
  })

  it("gives every other error as a message", () => {
    expect(FastApiDetail.body(failure("not_found", "team t1 not found"))).toEqual({ detail: "team t1 not found" })
  })
})
