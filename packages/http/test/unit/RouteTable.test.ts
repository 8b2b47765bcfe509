import { HttpApi, HttpApiEndpoint, HttpApiGroup, HttpApiSchema } from "@effect/platform"
import { describe, expect, it } from "@effect/vitest"
import { Context, FastCheck as fc, Option, Schema } from "effect"

import { CostlineApi } from "../../src/api/Api.js"
import * as RouteTable from "../../src/routing/RouteTable.js"

class Note extends Context.Tag("test/Note")<Note, string>() {}

const id = HttpApiSchema.param("id", Schema.String)
const org = HttpApiSchema.param("org", Schema.String)

const api = HttpApi.make("test")
  .add(
    HttpApiGroup.make("items")
      .add(HttpApiEndpoint.get("list", "/items"))
      .add(HttpApiEndpoint.post("create", "/items"))
      .add(HttpApiEndpoint.get("read")`/items/${id}`.annotate(Note, "read"))
      .add(HttpApiEndpoint.del("remove")`/items/${id}`)
      .prefix("/v2")
  )
  .add(HttpApiGroup.make("legacy").add(HttpApiEndpoint.post("create")`/${org}/items`).prefix("/api"))

const table = RouteTable.fromApi(api)

const matched = (method: string, path: string) =>
  Option.map(RouteTable.match(table, method, path), ({ params, route }) => ({ name: route.endpoint.name, params }))

describe("RouteTable", () => {
  it("finds the endpoint of a method and path, with its decoded parameters", () => {
    expect(matched("GET", "/v2/items/a%20b?x=1")).toEqual(Option.some({ name: "read", params: { id: "a b" } }))
    expect(matched("DELETE", "/v2/items/7")).toEqual(Option.some({ name: "remove", params: { id: "7" } }))
    expect(matched("POST", "/api/acme/items")).toEqual(Option.some({ name: "create", params: { org: "acme" } }))
  })

  it("matches only a path's one spelling: letter case, `//`, a trailing `/`, `;` or an encoded literal miss", () => {
    for (const path of ["/V2/ITEMS", "/v2/items/", "//v2/items", "/v2//items/7", "/v2/items;x", "/v2/%69tems"]) {
      expect(matched("GET", path)).toEqual(Option.none())
      expect(RouteTable.isKnownPath(table, path)).toBe(false)
    }
    expect(RouteTable.isKnownPath(table, "/v2/items?x=1")).toBe(true)
    expect(matched("GET", "/v2/items/ABC")).toEqual(Option.some({ name: "read", params: { id: "ABC" } }))
  })

  it("serves HEAD with the GET route", () => {
    expect(matched("HEAD", "/v2/items")).toEqual(Option.some({ name: "list", params: {} }))
  })

  it("finds nothing for another method, a longer path or an empty parameter", () => {
    expect(matched("PUT", "/v2/items")).toEqual(Option.none())
    expect(matched("GET", "/v2/items/7/extra")).toEqual(Option.none())
    expect(matched("POST", "/api//items")).toEqual(Option.none())
  })

  it("lists the methods a path allows, HEAD along with GET", () => {
    expect(RouteTable.allowedMethods(table, "/v2/items")).toEqual(["GET", "HEAD", "POST"])
    expect(RouteTable.allowedMethods(table, "/v2/items/7")).toEqual(["GET", "HEAD", "DELETE"])
    expect(RouteTable.allowedMethods(table, "/v2/nothing")).toEqual([])
  })

  it("exposes endpoint annotations", () => {
    const read = Option.getOrThrow(RouteTable.match(table, "GET", "/v2/items/1"))
    expect(RouteTable.annotation(read.route, Note)).toEqual(Option.some("read"))
    const list = Option.getOrThrow(RouteTable.match(table, "GET", "/v2/items"))
    expect(RouteTable.annotation(list.route, Note)).toEqual(Option.none())
  })

  it("answers each question about the path asked, whatever path and method were asked before", () => {
    // The table remembers its last answers; a new path, query or method must not get them.
    expect(matched("GET", "/v2/items/1")).toEqual(Option.some({ name: "read", params: { id: "1" } }))
    expect(matched("GET", "/v2/items/2")).toEqual(Option.some({ name: "read", params: { id: "2" } }))
    expect(matched("DELETE", "/v2/items/2")).toEqual(Option.some({ name: "remove", params: { id: "2" } }))
    expect(matched("POST", "/v2/items/2")).toEqual(Option.none())
    expect(matched("POST", "/v2/items/2?x")).toEqual(Option.none())
    expect(RouteTable.allowedMethods(table, "/v2/items/2?x")).toEqual(["GET", "HEAD", "DELETE"])
    expect(RouteTable.isKnownPath(table, "/v2/items/2/")).toBe(false)
    expect(matched("GET", "/v2/items/2")).toEqual(Option.some({ name: "read", params: { id: "2" } }))
    expect(RouteTable.allowedMethods(table, "/v2/items")).toEqual(["GET", "HEAD", "POST"])
  })

  it.prop("round-trips any parameter value through percent-encoding", [fc.string({ minLength: 1 })], ([value]) => {
    expect(matched("GET", `/v2/items/${encodeURIComponent(value)}`)).toEqual(
      Option.some({ name: "read", params: { id: value } })
    )
  })
})

describe("RouteTable where a literal and a parameter both fit a segment", () => {
  const action = HttpApiSchema.param("id", Schema.String)
  // Declared parameter first for GET, literal first for POST: the literal wins either way, as in the router.
  const overlapping = RouteTable.fromApi(
    HttpApi.make("overlap").add(
      HttpApiGroup.make("things")
        .add(HttpApiEndpoint.get("byId")`/things/${action}`)
        .add(HttpApiEndpoint.get("summary", "/things/summary"))
        .add(HttpApiEndpoint.post("query", "/things/query"))
        .add(HttpApiEndpoint.post("act")`/things/${action}`)
        .add(HttpApiEndpoint.del("forget")`/things/${action}/notes/${HttpApiSchema.param("note", Schema.String)}`)
    )
  )
  const name = (method: string, path: string) =>
    Option.map(RouteTable.match(overlapping, method, path), ({ params, route }) => ({ name: route.endpoint.name, params }))

  it("picks the literal over the parameter whatever the declaration order, and lists every method of either", () => {
    expect(name("GET", "/things/summary")).toEqual(Option.some({ name: "summary", params: {} }))
    expect(name("GET", "/things/7")).toEqual(Option.some({ name: "byId", params: { id: "7" } }))
    expect(name("POST", "/things/query")).toEqual(Option.some({ name: "query", params: {} }))
    expect(name("POST", "/things/7")).toEqual(Option.some({ name: "act", params: { id: "7" } }))
    expect(name("DELETE", "/things/7/notes/n%2F1")).toEqual(Option.some({ name: "forget", params: { id: "7", note: "n/1" } }))
    expect(RouteTable.allowedMethods(overlapping, "/things/query")).toEqual(["GET", "HEAD", "POST"])
    expect(RouteTable.isKnownPath(overlapping, "/things/7/notes")).toBe(false)
  })
})

describe("RouteTable.endpoints", () => {
  it("walks the API's endpoints as HttpApi.reflect does: same endpoints, order, groups and merged annotations", () => {
    const reflected: Array<unknown> = []
    HttpApi.reflect(CostlineApi, {
      onGroup: () => {},
      onEndpoint: ({ endpoint, group, mergedAnnotations }) => reflected.push({ endpoint, group, annotations: mergedAnnotations.unsafeMap })
    })
    const walked = RouteTable.endpoints(CostlineApi).map(({ endpoint, group, mergedAnnotations }) => ({ endpoint, group, annotations: mergedAnnotations.unsafeMap }))
    expect(walked.length).toBeGreaterThan(50)
    expect(walked).toStrictEqual(reflected)
    expect(RouteTable.fromApi(CostlineApi).routes.map(({ annotations }) => annotations.unsafeMap)).toStrictEqual(walked.map(({ annotations }) => annotations))
  })
})
