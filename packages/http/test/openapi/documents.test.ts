/**
 * The OpenAPI documents as served: one per version, every operation complete (statuses, error
 * bodies, headers, security), and exactly the operations the router serves.
 */
import { Gcra } from "@costline/core"
import { ApiLive } from "@costline/http"
import { SqliteStore } from "@costline/store-sqlite"
import { layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { describe, expect } from "vitest"
import { type Document, operations } from "../../src/openapi/index.js"
import * as Routes from "../../src/routing/Routes.js"
import { call, makeTestServer } from "../support/TestServer.js"

const fetchDocuments = Effect.all({
  v2: Effect.map(call("GET", "/v2/openapi.json"), (reply) => reply.body as Document),
  v1: Effect.map(call("GET", "/api/openapi.json"), (reply) => reply.body as Document)
})

const resolve = (document: Document, value: object): any => {
  const ref = (value as { $ref?: string }).$ref
  if (ref === undefined) return value
  const [, , kind, name] = ref.split("/")
  return (document.components as any)[kind!][name!]
}

layer(makeTestServer({ rateLimit: Gcra.DEFAULT_POLICY }), { excludeTestServices: true })("OpenAPI documents", (it) => {
  it.effect("are served as JSON without credentials, one per version", () =>
    Effect.gen(function*() {
      const v2 = yield* call("GET", "/v2/openapi.json")
      expect(v2.status).toBe(200)
      expect(v2.headers.get("content-type")).toContain("application/json")
      // The spec: "its description version is 0.1.0"; v1 is described by the same release.
      expect(v2.body).toMatchObject({ openapi: "3.1.0", info: { version: "0.1.0" } })
      const v1 = yield* call("GET", "/api/openapi.json")
      expect(v1.status).toBe(200)
      expect(v1.body).toMatchObject({ openapi: "3.1.0", info: { version: "0.1.0" } })
      expect(Object.keys(v2.body.paths).every((path) => path.startsWith("/v2/"))).toBe(true)
      expect(Object.keys(v1.body.paths).every((path) => path.startsWith("/api/"))).toBe(true)
    }))

  it.effect("mark every v1 operation deprecated, and no v2 operation", () =>
    Effect.gen(function*() {
      const { v1, v2 } = yield* fetchDocuments
      expect(operations(v1).length).toBeGreaterThan(0)
      expect(operations(v1).every(({ operation }) => operation.deprecated === true)).toBe(true)
      expect(operations(v2).some(({ operation }) => operation.deprecated === true)).toBe(false)
    }))

  it.effect("describe the bearer credential and require it on every operation, with the tenant header on v2", () =>
    Effect.gen(function*() {
      const { v1, v2 } = yield* fetchDocuments
      expect(v1.components.securitySchemes).toEqual({ bearer: expect.objectContaining({ type: "http", scheme: "bearer" }) })
      for (const { operation } of operations(v1)) expect(operation.security).toEqual([{ bearer: [] }])
      // The tenant header as a credential too: a client sets it once; the wire is the same header.
      expect(v2.components.securitySchemes).toEqual({
        bearer: expect.objectContaining({ type: "http", scheme: "bearer" }),
        tenant: expect.objectContaining({ type: "apiKey", in: "header", name: "x-tenant-id" })
      })
      expect(v2.security).toEqual([{ bearer: [], tenant: [] }])
      for (const { operation } of operations(v2)) {
        // Accepting an invitation takes no bearer credential: its token is one.
        expect(operation.security, operation.operationId).toEqual(
          operation.operationId === "invitations.acceptInvitation" ? [{ tenant: [] }] : [{ bearer: [], tenant: [] }]
        )
        const tenant = operation.parameters.map((parameter) => resolve(v2, parameter)).find(({ name }) => name === "x-tenant-id")
        // Not required as a parameter: the security requirement says it is, and generated clients
        // would otherwise demand it on every call.
        expect(tenant).toMatchObject({ in: "header", required: false })
      }
    }))

  it.effect("list the statuses every operation can answer, with each version's error body and example", () =>
    Effect.gen(function*() {
      const { v1, v2 } = yield* fetchDocuments
      for (const [version, document] of [["v2", v2], ["v1", v1]] as const) {
        for (const { method, operation } of operations(document)) {
          const statuses = Object.keys(operation.responses)
          expect(statuses).toEqual(expect.arrayContaining(["400", "401", "403", "422", "429", "503"]))
          if (method !== "get") expect(statuses).toEqual(expect.arrayContaining(["408", "413", "415"]))
          expect(statuses.some((status) => status.startsWith("2"))).toBe(true)
          for (const [status, response] of Object.entries(operation.responses)) {
            if (Number(status) < 400) continue
            const [mediaType, content] = Object.entries(response.content ?? {})[0]!
            expect(mediaType).toBe(version === "v2" ? "application/problem+json" : "application/json")
            // The example is a body of that status.
            if (version === "v2") expect(content.example).toMatchObject({ status: Number(status) })
            else expect(content.example).toHaveProperty("detail")
          }
        }
      }
    }))

  it.effect("declare the headers the framework cannot: request id, tenant, rate limits, Retry-After, deprecation", () =>
    Effect.gen(function*() {
      const { v1, v2 } = yield* fetchDocuments
      for (const { operation } of operations(v2)) {
        const parameters = operation.parameters.map((parameter) => resolve(v2, parameter).name)
        expect(parameters).toEqual(expect.arrayContaining(["x-tenant-id", "x-request-id"]))
        for (const [status, response] of Object.entries(operation.responses)) {
          expect(Object.keys(response.headers ?? {})).toEqual(expect.arrayContaining(["X-Request-Id", "RateLimit-Policy"]))
          if (status !== "401") expect(response.headers).toHaveProperty("RateLimit")
          if (status === "429" || status === "503") expect(response.headers).toHaveProperty("Retry-After")
          if (status === "201") expect(response.headers).toHaveProperty("Location")
        }
      }
      for (const { operation } of operations(v1)) {
        for (const response of Object.values(operation.responses)) {
          expect(Object.keys(response.headers ?? {})).toEqual(
            expect.arrayContaining(["X-Request-Id", "Deprecation", "Sunset", "Link"])
          )
          expect(response.headers).not.toHaveProperty("RateLimit")
        }
      }
    }))

  it.effect("give every updatable resource an ETag header and its writes an If-Match parameter", () =>
    Effect.gen(function*() {
      const { v2 } = yield* fetchDocuments
      const withEtag = operations(v2).filter(({ operation }) =>
        Object.entries(operation.responses).some(([status, response]) =>
          status.startsWith("2") &&
          Object.values(response.content ?? {}).some(({ schema }) => "etag" in (resolve(v2, schema).properties ?? {}))
        )
      )
      expect(withEtag.length).toBeGreaterThan(0)
      for (const { method, operation } of withEtag) {
        const success = Object.entries(operation.responses).find(([status]) => status === "200" || status === "201")
        expect(success?.[1].headers).toHaveProperty("ETag")
        if (method === "patch" || method === "put") {
          expect(operation.parameters.map((parameter) => resolve(v2, parameter).name)).toContain("if-match")
        }
      }
    }))

  it.effect("document If-Match as required where the server answers 428 without it", () =>
    Effect.gen(function*() {
      const { v2 } = yield* fetchDocuments
      const requiring = operations(v2).filter(({ operation }) => "428" in operation.responses)
      expect(requiring.map(({ method, path }) => `${method} ${path}`)).toContain("patch /v2/insights/{insight_id}")
      for (const { operation } of requiring) {
        const ifMatch = operation.parameters.map((parameter) => resolve(v2, parameter)).filter(({ name }) => name === "if-match")
        expect(ifMatch).toEqual([expect.objectContaining({ in: "header", required: true })])
      }
      // Elsewhere it stays optional.
      const team = v2.paths["/v2/teams/{team_id}"]!.patch!
      expect(team.parameters.map((parameter) => resolve(v2, parameter)).find(({ name }) => name === "if-match"))
        .toMatchObject({ required: false })
    }))

  it.effect("declare 409 on every v2 operation that changes state or runs analysis", () =>
    Effect.gen(function*() {
      const { v2 } = yield* fetchDocuments
      const named = [
        "delete /v2/teams/{team_id}/roles/{role_id}",
        "post /v2/insights/actions/analyze-query",
        "post /v2/insights/actions/generate-code-change",
        "post /v2/insights/{insight_id}/actions/viewed",
        "post /v2/usage-group-sets/{usage_group_set_id}/usage-groups"
      ]
      const changing = operations(v2).filter(({ method }) => method !== "get")
      expect(changing.map(({ method, path }) => `${method} ${path}`)).toEqual(expect.arrayContaining(named))
      for (const { operation } of changing) expect(Object.keys(operation.responses)).toContain("409")
    }))

  it.effect("document PATCH bodies as JSON and as JSON merge patch", () =>
    Effect.gen(function*() {
      const { v2 } = yield* fetchDocuments
      const patches = operations(v2).filter(({ method }) => method === "patch")
      expect(patches.length).toBeGreaterThan(0)
      for (const { operation } of patches) {
        const content = operation.requestBody?.content ?? {}
        expect(Object.keys(content).sort()).toEqual(["application/json", "application/merge-patch+json"])
        expect(content["application/merge-patch+json"]).toEqual(content["application/json"])
      }
    }))

  it.effect("document set filters in both forms the server reads: comma-separated and repeated", () =>
    Effect.gen(function*() {
      const { v1, v2 } = yield* fetchDocuments
      const lists = [...operations(v2), ...operations(v1)].flatMap(({ operation }) =>
        operation.parameters.map((parameter) => resolve(v2, parameter)).filter((parameter) => parameter.schema?.type === "array")
      )
      expect(lists.map(({ name }) => name)).toEqual(expect.arrayContaining(["status__in", "resource__not_in", "role"]))
      for (const parameter of lists) {
        expect(parameter).toMatchObject({ in: "query", style: "form", explode: false })
        expect(parameter.description).toContain(`?${parameter.name}=a&${parameter.name}=b`)
      }
    }))

  it.effect("describe a usage group's filter expression as a recursive schema, in both versions and both forms", () =>
    Effect.gen(function*() {
      const { v1, v2 } = yield* fetchDocuments
      const bodies = [
        [v2, v2.paths["/v2/usage-group-sets/{usage_group_set_id}/usage-groups"]!.post!],
        [v2, v2.paths["/v2/usage-group-sets/{usage_group_set_id}/usage-groups/{usage_group_id}"]!.patch!],
        [v1, v1.paths["/api/{organization_id}/usage-group-sets/{usage_group_set_id}/usage-groups/{usage_group_id}"]!.put!]
      ] as const
      for (const [document, operation] of bodies) {
        const body = resolve(document, operation.requestBody!.content["application/json"]!.schema)
        expect(body.properties.filter_expression).toEqual({ $ref: "#/components/schemas/FilterExpressionInput" })
        expect(body.properties.filter_expression_json).toMatchObject({
          type: "string",
          contentMediaType: "application/json",
          contentSchema: { $ref: "#/components/schemas/FilterExpressionInput" }
        })
        const group = document.components.schemas["FilterExpressionInput"] as any
        expect(group).toMatchObject({ type: "object", required: ["operator", "filters"] })
        expect(group.properties.operator.enum).toEqual(["and", "or"])
        // group | leaf, recursively
        expect(group.properties.filters.items.anyOf).toEqual([
          { $ref: "#/components/schemas/FilterLeafInput" },
          { $ref: "#/components/schemas/FilterExpressionInput" }
        ])
        const leaf = document.components.schemas["FilterLeafInput"] as any
        expect(leaf.required).toEqual(["field", "operator"])
        expect(leaf.properties.operator.enum).toEqual(expect.arrayContaining(["=", "in", "ilike", "is_null", "array_contains"]))
        expect(leaf.properties.value.anyOf).toEqual(expect.arrayContaining([{ type: "string" }, { type: "number" }]))
      }
    }))

  it.effect("emit plain JSON Schema: date-time formats, no Effect-internal titles, descriptions, ids or pattern-only allOf", () =>
    Effect.gen(function*() {
      for (const document of Object.values(yield* fetchDocuments)) {
        expect(document.components.schemas["DateTimeUtc"]).toMatchObject({ type: "string", format: "date-time" })
        const text = JSON.stringify(document)
        expect(text).not.toContain("to be decoded into")
        expect(text).not.toMatch(/"title":"(maxLength|minItems|between|int|nonNegative|finite|unknown)\b/)
        expect(text).not.toMatch(/"description":"an? /)
        expect(text).not.toContain("\"$id\"")
        expect(text).not.toMatch(/"allOf":\[\{"pattern"/)
      }
      const { v2 } = yield* fetchDocuments
      const insight = v2.components.schemas["Insight"] as any
      // An email that is also trimmed: one string schema with one pattern both hold in.
      const assignee = insight.properties.assignee.anyOf[0]
      expect(assignee).toMatchObject({ type: "string", maxLength: 320 })
      expect(assignee).not.toHaveProperty("allOf")
      const pattern = new RegExp(assignee.pattern, "u")
      expect(pattern.test("ana@example.com")).toBe(true)
      expect(pattern.test("ana example.com")).toBe(false)
      expect(pattern.test(" ana@example.com")).toBe(false)
    }))

  it.effect("keep only the components they use", () =>
    Effect.gen(function*() {
      const { v1, v2 } = yield* fetchDocuments
      // The framework's own error shapes are never sent; the other version's errors are not ours.
      expect(v2.components.schemas).not.toHaveProperty("HttpApiDecodeError")
      expect(v2.components.schemas).not.toHaveProperty("HTTPError")
      expect(v1.components.schemas).not.toHaveProperty("Problem")
      expect(v1.components.headers).not.toHaveProperty("RateLimit")
    }))
})

layer(makeTestServer({ rateLimit: false }), { excludeTestServices: true })("OpenAPI documents without rate limits", (it) => {
  it.effect("do not announce rate-limit headers", () =>
    Effect.gen(function*() {
      const { body } = yield* call("GET", "/v2/openapi.json")
      expect(body.components.headers).not.toHaveProperty("RateLimit")
      expect(JSON.stringify(body.paths)).not.toContain("RateLimit")
    }))
})

/** The compiled routes: what the server really dispatches, built like `serve` builds it. */
const RouterLive = ApiLive({ store: SqliteStore.layer({ filename: ":memory:" }) })

describe("route coverage", () => {
  layer(Layer.merge(RouterLive, makeTestServer()), { excludeTestServices: true })((it) => {
    it.effect("every route served is an operation of a document, and every operation a route", () =>
      Effect.gen(function*() {
        const { routes } = yield* Routes.Routes
        const served = [...routes.values()].map(({ route }) => `${route.method} ${route.path}`).sort()
        const { v1, v2 } = yield* fetchDocuments
        const documented = [...operations(v2), ...operations(v1)]
          .map(({ method, path }) => `${method.toUpperCase()} ${path.replace(/\{([^}]+)\}/g, ":$1")}`)
          .sort()
        expect(served.length).toBeGreaterThan(0)
        expect(documented).toEqual(served)
      }))
  })
})
