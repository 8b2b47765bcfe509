import { describe, expect, it } from "@effect/vitest"
import { Option } from "effect"
import { versionOf } from "../../src/api/Versions.js"
import * as Deprecation from "../../src/middleware/Deprecation.js"
import * as RequestId from "../../src/middleware/RequestId.js"

describe("Deprecation headers", () => {
  const policy = { deprecatedAt: new Date("2026-01-01T00:00:00Z"), sunsetAt: new Date("2026-06-30T12:00:00Z") }

  it("state the deprecation as an RFC 9745 date and the sunset as an HTTP date", () => {
    expect(Deprecation.headers(policy, Option.none())).toEqual({
      deprecation: "@1767225600",
      sunset: "Tue, 30 Jun 2026 12:00:00 GMT"
    })
  })

  it("fill the successor's parameters from the request, encoded", () => {
    expect(Deprecation.successorPath("/v2/teams/:team_id/roles/:role_id", { team_id: "t 1", role_id: "r/2" }))
      .toBe("/v2/teams/t%201/roles/r%2F2")
    expect(Deprecation.successorPath("/v2/users/:email", {})).toBe("/v2/users/:email")
  })
})

describe("request ids", () => {
  it.each(["abc", "trace-1:span.2", "a/b+c=d@e_f", "x".repeat(128)])("accepts %s", (id) => {
    expect(RequestId.isSane(id)).toBe(true)
  })

  it.each(["", "with space", "quote\"", "x".repeat(129), "new\nline", "é"])("replaces %j", (id) => {
    expect(RequestId.isSane(id)).toBe(false)
  })
})

describe("versionOf", () => {
  it.each([
    ["/api/acme/teams", "v1"],
    ["/API/acme/teams", "v1"],
    ["//api/acme", "v1"],
    ["/api", "v1"],
    ["/api?x=1", "v1"],
    ["/v2/teams", "v2"],
    ["/apis/x", "v2"],
    ["/", "v2"]
  ])("%s is %s", (path, version) => {
    expect(versionOf(path)).toBe(version)
  })
})
