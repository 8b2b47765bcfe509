/**
 * The whole API against its own documents: for every operation of the OpenAPI documents,
 * fast-check sends requests built from the documented parameters and bodies (mostly valid, with
 * real ids harvested from earlier answers) and broken ones (no or bad credentials, another
 * tenant, garbage parameters, bodies that are not JSON, not the documented shape, or not JSON at
 * all). Whatever it sends, the answer is never a 5xx, its status is documented for the
 * operation, and its body matches the documented schema of that status.
 */
import { Gcra } from "@costline/core"
import { CostlineApi } from "@costline/http"
import { layer } from "@effect/vitest"
import { Effect } from "effect"
import * as fc from "fast-check"
import { describe, expect } from "vitest"
import { DEFAULT_POLICY } from "../src/middleware/Deprecation.js"
import * as OpenApiDocuments from "../src/openapi/index.js"
import type { Document, Operation, Parameter } from "../src/openapi/index.js"
import { arbitrary, resolver, validate } from "./support/JsonSchema.js"
import { baseUrl, call, makeTestServer, seedTenant } from "./support/TestServer.js"

const OPTIONS = { rateLimit: Gcra.DEFAULT_POLICY, deprecation: DEFAULT_POLICY }
const documents = OpenApiDocuments.make(CostlineApi, OPTIONS)

interface Credentials {
  readonly tenant: string
  readonly token: string
}

interface Request {
  readonly method: string
  readonly path: string
  readonly headers: Record<string, string>
  readonly body?: string | undefined
}

/** Ids and ETags seen in successful answers: valid requests reuse them to reach real resources. */
const harvest = { ids: [] as Array<string>, etags: [] as Array<string> }

const remember = (value: unknown) => {
  if (Array.isArray(value)) return value.forEach(remember)
  if (value === null || typeof value !== "object") return
  for (const [key, member] of Object.entries(value)) {
    if ((key === "id" || key.endsWith("_id")) && typeof member === "string" && !harvest.ids.includes(member)) harvest.ids.push(member)
    else remember(member)
  }
}

/** A harvested value when there is one, else `fallback`: read when the value is drawn. */
const harvested = (pool: Array<string>, fallback: fc.Arbitrary<string>) =>
  fc.oneof(fallback, fc.nat().map((n) => pool.length === 0 ? undefined : pool[n % pool.length]!))
    .chain((value) => value === undefined ? fallback : fc.constant(value))

/** A path segment that stays one: URL parsers drop `.` and `..` segments unless escaped. */
const segment = (value: string) => /^\.{1,2}$/.test(value) ? value.replaceAll(".", "%2E") : encodeURIComponent(value)

const queryString = (query: Record<string, unknown>) => {
  const search = new URLSearchParams()
  for (const [name, value] of Object.entries(query)) {
    if (value === undefined) continue
    for (const item of Array.isArray(value) ? value : [value]) search.append(name, typeof item === "string" ? item : JSON.stringify(item))
  }
  const text = search.toString()
  return text.length === 0 ? "" : `?${text}`
}

/** Requests for one operation as documented: the credentials and tenant are the caller's own. */
const validRequest = (document: Document, path: string, method: string, operation: Operation, caller: Credentials) => {
  const resolve = resolver(document)
  const parameters = operation.parameters.map((parameter) => resolve(parameter as any) as unknown as Parameter)
  const valueOf = (parameter: Parameter): fc.Arbitrary<unknown> => {
    if (parameter.name === "organization_id" || parameter.name === "x-tenant-id") return fc.constant(caller.tenant)
    if (parameter.name === "if-match") return harvested(harvest.etags, fc.oneof(fc.constant("*"), fc.string()))
    if (parameter.in === "path") return harvested(harvest.ids, arbitrary(resolve, parameter.schema).map(String).filter((v) => v.length > 0))
    return arbitrary(resolve, parameter.schema)
  }
  const group = (location: Parameter["in"]) =>
    fc.record(
      Object.fromEntries(parameters.filter((p) => p.in === location).map((p) => [p.name, valueOf(p)])),
      { requiredKeys: parameters.filter((p) => p.in === location && p.required).map((p) => p.name) }
    )
  const bodySchema = operation.requestBody?.content["application/json"]?.schema
  return fc.record({
    path: group("path"),
    query: group("query"),
    headers: group("header"),
    body: bodySchema === undefined ? fc.constant(undefined) : arbitrary(resolve, bodySchema)
  }).map(({ body, headers, path: params, query }): Request => ({
    method: method.toUpperCase(),
    path: path.replace(/\{([^}]+)\}/g, (_, name: string) => segment(String(params[name]))) + queryString(query),
    headers: {
      ...Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, String(value)])),
      authorization: `Bearer ${caller.token}`,
      ...(body === undefined ? {} : { "content-type": "application/json" })
    },
    body: body === undefined ? undefined : JSON.stringify(body)
  }))
}

/** Bodies no client should send: not JSON, JSON of any shape, not declared as JSON. */
const brokenBodies = (valid: fc.Arbitrary<Request>) => [
  fc.tuple(valid, fc.string()).map(([request, text]) => ({ ...request, body: `{${text}`, headers: { ...request.headers, "content-type": "application/json" } })),
  fc.tuple(valid, fc.jsonValue({ maxDepth: 3 })).map(([request, json]) => ({ ...request, body: JSON.stringify(json), headers: { ...request.headers, "content-type": "application/json" } })),
  valid.map((request) => ({ ...request, body: "name=x", headers: { ...request.headers, "content-type": "application/x-www-form-urlencoded" } }))
]

/** Ways to break a valid request, each a client mistake the API must answer in its documented way. */
const broken = (method: string, valid: fc.Arbitrary<Request>, other: Credentials): fc.Arbitrary<Request> =>
  fc.oneof(
    valid.map(({ headers: { authorization: _, ...headers }, ...request }) => ({ ...request, headers })),
    fc.tuple(valid, fc.string()).map(([request, token]) => ({ ...request, headers: { ...request.headers, authorization: `Bearer ${token}` } })),
    valid.map((request) => ({ ...request, headers: { ...request.headers, authorization: `Bearer ${other.token}` } })),
    // fetch sends no body with GET.
    ...(method === "get" ? [] : brokenBodies(valid)),
    fc.tuple(valid, fc.dictionary(fc.string({ minLength: 1, maxLength: 12 }), fc.string(), { maxKeys: 4 })).map(([request, query]) => ({
      ...request,
      path: `${request.path}${request.path.includes("?") ? "&" : "?"}${new URLSearchParams(query).toString()}`
    })),
    fc.tuple(valid, fc.string({ minLength: 1, maxLength: 20 })).map(([request, junk]) => ({
      ...request,
      // The last path segment replaced by anything at all.
      path: request.path.split("?")[0]!.replace(/\/[^/]+$/, `/${segment(junk)}`)
    }))
  )

const check = (document: Document, operation: Operation, request: Request, reply: { status: number; headers: Headers; text: string }) => {
  const where = `${request.method} ${request.path} → ${reply.status} ${reply.text.slice(0, 300)}`
  expect(reply.status, where).toBeLessThan(500)
  const documented = operation.responses[String(reply.status)]
  expect(documented, `undocumented status: ${where}`).toBeDefined()
  expect(reply.headers.get("x-request-id"), where).not.toBeNull()
  const content = Object.entries(documented!.content ?? {})
  if (content.length === 0) return expect(reply.text, where).toBe("")
  const contentType = reply.headers.get("content-type")?.split(";")[0]
  const media = content.find(([type]) => type === contentType)
  expect(media, `content type ${contentType} not documented: ${where}`).toBeDefined()
  const body = JSON.parse(reply.text)
  expect(validate(resolver(document), media![1].schema, body), where).toEqual([])
  if (reply.status < 300) {
    remember(body)
    const etag = reply.headers.get("etag")
    if (etag !== null) harvest.etags.push(etag)
  }
}

layer(makeTestServer(OPTIONS), { excludeTestServices: true })("every operation of the documents", (it) => {
  it.effect("the documents served are the ones under test", () =>
    Effect.gen(function*() {
      expect((yield* call("GET", "/v2/openapi.json")).body).toEqual(JSON.parse(JSON.stringify(documents.v2)))
      expect((yield* call("GET", "/api/openapi.json")).body).toEqual(JSON.parse(JSON.stringify(documents.v1)))
    }))

  for (const [version, document] of Object.entries(documents)) {
    describe(version, () => {
      for (const { method, operation, path } of OpenApiDocuments.operations(document)) {
        it.effect(`${method.toUpperCase()} ${path}: never a 5xx, always the documented status and body`, () =>
          Effect.gen(function*() {
            const base = yield* baseUrl
            // Every request spends the caller's budget: a tenant per operation keeps 429s rare (and documented).
            const [caller, other] = [yield* seedTenant, yield* seedTenant]
            const credentials = { tenant: caller.id, token: caller.adminKey }
            const valid = validRequest(document, path, method, operation, credentials)
            const requests = fc.oneof({ arbitrary: valid, weight: 3 }, { arbitrary: broken(method, valid, { tenant: other.id, token: other.adminKey }), weight: 2 })
            yield* Effect.promise(() =>
              fc.assert(
                fc.asyncProperty(requests, async (request) => {
                  const response = await fetch(`${base}${request.path}`, {
                    method: request.method,
                    headers: request.headers,
                    ...(request.body === undefined ? {} : { body: request.body })
                  })
                  check(document, operation, request, { status: response.status, headers: response.headers, text: await response.text() })
                }),
                { numRuns: 40 }
              )
            )
          }), 120_000)
      }
    })
  }
})
