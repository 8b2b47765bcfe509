/**
 * The request examples of the documents, which the docs page's "Try it out" sends as they are:
 * for the demo organization (or the host's `docsTenant`), without a fixed request id, without
 * filters nobody asked for, and each one accepted by the server.
 */
import { Actor, ApiKeys, Organizations, Users } from "@costline/core"
import type { Ids } from "@costline/core"
import { layer } from "@effect/vitest"
import { Effect } from "effect"
import { expect } from "vitest"
import { type Document, operations as operationsOf } from "../../src/openapi/index.js"
import { type Resolve, resolver, validate } from "../support/JsonSchema.js"
import { baseUrl, call, makeTestServer } from "../support/TestServer.js"

type Parameter = { name: string; in: string; required: boolean; example?: unknown; schema: unknown }

const documents = Effect.gen(function*() {
  const v2: Document = (yield* call("GET", "/v2/openapi.json")).body
  const v1: Document = (yield* call("GET", "/api/openapi.json")).body
  return { v2, v1 }
})

/** Every operation with its parameters resolved, in both documents. */
const everyOperation = Effect.map(documents, ({ v1, v2 }) =>
  [v2, v1].flatMap((document) => {
    const resolve: Resolve = resolver(document)
    return operationsOf(document).map(({ method, operation, path }) => ({
      method,
      path,
      operation,
      resolve,
      parameters: operation.parameters.map((parameter) => resolve(parameter as never) as unknown as Parameter)
    }))
  }))

/** Where an operation names its organization; v1's `/api/dw-accounts/…` take the credential's own. */
const tenantOf = (operation: { path: string; parameters: ReadonlyArray<Parameter> }) =>
  operation.path.startsWith("/api/dw-accounts/")
    ? "the credential's"
    : operation.parameters.find((parameter) =>
      (parameter.in === "header" && parameter.name === "x-tenant-id") || (parameter.in === "path" && parameter.name === "organization_id")
    )?.example

/** The request the docs page builds from the examples alone. */
const requestOf = (
  { method, operation, parameters, path }: Effect.Effect.Success<typeof everyOperation>[number]
) => {
  const url = path.replace(/\{(\w+)\}/g, (_, name: string) =>
    encodeURIComponent(String(parameters.find((parameter) => parameter.in === "path" && parameter.name === name)!.example)))
  const query = new URLSearchParams(
    parameters.filter((parameter) => parameter.in === "query" && parameter.example !== undefined)
      .map((parameter): [string, string] => [parameter.name, String(parameter.example)])
  )
  const headers: Record<string, string> = Object.fromEntries(
    parameters.filter((parameter) => parameter.in === "header" && parameter.example !== undefined)
      .map((parameter) => [parameter.name, String(parameter.example)])
  )
  const body = (operation.requestBody?.content["application/json"] as { example?: unknown } | undefined)?.example
  return {
    method: method.toUpperCase(),
    url: query.size === 0 ? url : `${url}?${query}`,
    headers: body === undefined ? headers : { ...headers, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body)
  }
}

/** An organization with its admin and an admin API key, as `costline seed` makes it. */
const seedOrganization = (id: string) =>
  Effect.gen(function*() {
    const organizationId = id as Ids.OrganizationId
    yield* (yield* Organizations.Organizations).create({ id: organizationId, name: id })
    yield* (yield* Users.Users).add(Actor.Actor.system(), organizationId, { email: `admin@${id}.example`, role: "admin" })
    const { token } = yield* (yield* ApiKeys.ApiKeys).create(Actor.Actor.system(), organizationId, { name: "docs", access: "admin", scopes: ["*"] })
    return token
  })

layer(makeTestServer(), { excludeTestServices: true })("the request examples", (it) => {
  it.effect("name the demo organization in x-tenant-id and v1's organization_id, and fix no request id", () =>
    Effect.gen(function*() {
      for (const operation of yield* everyOperation) {
        const requestId = operation.parameters.find((parameter) => parameter.name === "x-request-id")
        const tenant = tenantOf(operation)
        expect({ operation: operation.operation.operationId, tenant }).toEqual({
          operation: operation.operation.operationId,
          tenant: tenant === "the credential's" ? tenant : "demo"
        })
        expect(requestId).toBeDefined()
        expect(requestId).not.toHaveProperty("example")
      }
    }))

  it.effect("are given for what a request must carry, and only for that: no optional filter is pre-set", () =>
    Effect.gen(function*() {
      for (const { operation, parameters } of yield* everyOperation) {
        for (const parameter of parameters) {
          const where = `${operation.operationId} ${parameter.in} ${parameter.name}`
          const carried = parameter.required || parameter.name === "x-tenant-id"
          expect({ where, example: parameter.example !== undefined }).toEqual({ where, example: carried })
        }
        for (const [type, media] of Object.entries(operation.requestBody?.content ?? {})) {
          expect({ operation: operation.operationId, type, example: (media as { example?: unknown }).example !== undefined })
            .toEqual({ operation: operation.operationId, type, example: true })
        }
      }
    }))

  it.effect("match their documented schemas: no `string` placeholders, real emails, UUIDs and date-times", () =>
    Effect.gen(function*() {
      for (const { operation, parameters, resolve } of yield* everyOperation) {
        for (const parameter of parameters.filter((parameter) => parameter.example !== undefined)) {
          expect({ where: `${operation.operationId} ${parameter.name}`, errors: validate(resolve, parameter.schema as never, parameter.example) })
            .toEqual({ where: `${operation.operationId} ${parameter.name}`, errors: [] })
        }
        for (const media of Object.values(operation.requestBody?.content ?? {})) {
          const { example, schema } = media as { example: unknown; schema: never }
          expect({ operation: operation.operationId, errors: validate(resolve, schema, example) })
            .toEqual({ operation: operation.operationId, errors: [] })
          expect(JSON.stringify(example)).not.toContain("\"string\"")
        }
      }
    }))

  it.effect("are accepted by the server as they are: each request is authorised and valid (404 for ids of nothing)", () =>
    Effect.gen(function*() {
      const token = yield* seedOrganization("demo")
      const base = yield* baseUrl
      const answers: Array<string> = []
      const refused: Array<string> = []
      // Ending the caller's own session is for user sessions; this caller's credential is an API key.
      const replayed = (yield* everyOperation).filter(({ operation }) => operation.operationId !== "sessions.logout")
      for (const operation of replayed) {
        const request = requestOf(operation)
        const reply = yield* Effect.promise(() =>
          fetch(`${base}${request.url}`, {
            method: request.method,
            headers: { ...request.headers, authorization: `Bearer ${token}` },
            ...(request.body === undefined ? {} : { body: request.body })
          })
        )
        const text = yield* Effect.promise(() => reply.text())
        answers.push(`${operation.operation.operationId} ${reply.status}`)
        // What a made-up tenant, a placeholder value or a missing field would get; and 428 where the
        // document says If-Match is required (and so gives it an example).
        const ifMatch = operation.parameters.find((parameter) => parameter.name === "if-match")
        const refusals = [400, 401, 403, 415, 422, ...(ifMatch?.required === true ? [428] : [])]
        if (refusals.includes(reply.status)) refused.push(`${operation.operation.operationId} ${reply.status} ${text}`)
      }
      expect(refused).toEqual([])
      // And most of them work outright, lists and creations alike.
      expect(answers).toContain("insights.listInsights 200")
      expect(answers).toContain("teams.createTeam 201")
      expect(answers).toContain("usageGroups.createUsageGroupSet 201")
      expect(answers).toContain("userRoles.listUserRoles 200")
      expect(answers).toContain("intelligence.ingestDw 200")
    }))

  it.effect("make a usage group with a working filter expression, in a set made from its example", () =>
    Effect.gen(function*() {
      const token = yield* seedOrganization("demo-usage")
      const { v2 } = yield* documents
      const bodyOf = (path: string, method: "post" | "patch") =>
        (v2.paths[path]![method]!.requestBody!.content["application/json"] as { example: unknown }).example
      const send = (method: string, path: string, json: unknown, headers: Record<string, string> = {}) =>
        call(method, path, { token, tenant: "demo-usage", json, headers })
      const set = yield* send("POST", "/v2/usage-group-sets", bodyOf("/v2/usage-group-sets", "post"))
      expect(set.status).toBe(201)
      const groups = `/v2/usage-group-sets/${set.body.id}/usage-groups`
      const group = yield* send("POST", groups, bodyOf("/v2/usage-group-sets/{usage_group_set_id}/usage-groups", "post"))
      expect(group.status).toBe(201)
      expect(group.body.filter_expression.filters).toHaveLength(2)
      const update = bodyOf("/v2/usage-group-sets/{usage_group_set_id}/usage-groups/{usage_group_id}", "patch")
      const updated = yield* send("PATCH", `${groups}/${group.body.id}`, update, { "if-match": group.body.etag })
      expect(updated.status).toBe(200)
    }))
})

layer(makeTestServer({ docsTenant: "acme-corp" }), { excludeTestServices: true })("with the host's docsTenant", (it) => {
  it.effect("the examples are for that organization", () =>
    Effect.gen(function*() {
      for (const operation of yield* everyOperation) {
        expect(tenantOf(operation)).toMatch(/^(acme-corp|the credential's)$/)
        const email = operation.parameters.find((parameter) => parameter.name === "email")
        if (email !== undefined) expect(email.example).toBe("admin@acme-corp.example")
      }
    }))
})
