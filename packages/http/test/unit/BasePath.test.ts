import { HttpServerResponse } from "@effect/platform"
import { describe, expect, it } from "@effect/vitest"
import * as BasePath from "../../src/BasePath.js"

describe("BasePath.normalize", () => {
  it.each([
    [undefined, ""],
    ["", ""],
    ["/", ""],
    ["cost", "/cost"],
    ["/cost/", "/cost"],
    ["//tools/cost//", "/tools/cost"]
  ])("%j → %j", (input, expected) => {
    expect(BasePath.normalize(input)).toBe(expected)
  })
})

describe("BasePath.strip", () => {
  it.each([
    ["/cost/v2/teams?x=1", "/v2/teams?x=1"],
    ["/cost", "/"],
    ["/cost?x=1", "/?x=1"],
    ["/cost/", "/"]
  ])("takes the prefix off %s", (url, expected) => {
    expect(BasePath.strip("/cost", url)).toBe(expected)
  })

  it.each(["/costs/v2/teams", "/v2/teams", "/", "/Cost/v2/teams"])("leaves %s outside", (url) => {
    expect(BasePath.strip("/cost", url)).toBeUndefined()
  })

  it("passes every path without a prefix", () => {
    expect(BasePath.strip("", "/v2/teams")).toBe("/v2/teams")
  })
})

describe("BasePath.prefixLinks", () => {
  const withHeaders = (headers: Record<string, string>) => HttpServerResponse.empty({ status: 201, headers })

  it("puts the prefix on Location and on the paths a Link names", () => {
    const response = BasePath.prefixLinks(
      "/cost",
      withHeaders({ location: "/v2/teams/1", link: "</v2/teams>; rel=\"successor-version\"", etag: "\"a\"" })
    )
    expect(response.headers).toMatchObject({
      location: "/cost/v2/teams/1",
      link: "</cost/v2/teams>; rel=\"successor-version\"",
      etag: "\"a\""
    })
  })

  it("leaves full URLs and network paths alone", () => {
    const headers = { location: "https://elsewhere.example/x", link: "<//cdn.example/a>; rel=\"x\"" }
    expect(BasePath.prefixLinks("/cost", withHeaders(headers)).headers).toMatchObject(headers)
    const networkPath = { location: "//cdn.example/a" }
    expect(BasePath.prefixLinks("/cost", withHeaders(networkPath)).headers).toMatchObject(networkPath)
  })

  it("changes nothing without a prefix", () => {
    const response = withHeaders({ location: "/v2/teams/1" })
    expect(BasePath.prefixLinks("", response)).toBe(response)
  })
})
