/**
 * The spec's exact shapes, through the real server: v1 validation items (`loc` strings, `input`
 * always, `url` on a missing field), v1 UUID path ids, input an operation does not declare (body
 * members, query parameters, a body where there is none), validation messages in plain words,
 * and `RateLimit` on every v2 answer to a known credential.
 */
import { layer } from "@effect/vitest"
import { Effect } from "effect"
import { describe, expect } from "vitest"
import { insightsCall, upsertInsight } from "./support/Insights.js"
import { call, makeTestServer, seedTenant } from "./support/TestServer.js"
import { newGroup, newSet, v1 } from "./support/Usage.js"

const MISSING_URL = "https://errors.pydantic.dev/2.10/v/missing"

/** Framework text that must never reach a client. */
const INTERNALS = /Encoded side|ReadonlyArray|DateTime\.Utc|Expected null/

describe("the spec's exact shapes", () => {
  layer(makeTestServer(), { excludeTestServices: true })("validation", (it) => {
    it.effect("v1 items: loc is strings, a missing field links its kind, every item (core's checks too) has input", () =>
      Effect.gen(function*() {
        const tenant = yield* seedTenant
        const missing = yield* v1(tenant)("POST", "/sso-group-mappings", {
          json: { sso_group_name: "Data", roles: [{ role: "viewer" }] }
        })
        expect(missing.status).toBe(422)
        expect(missing.body.detail).toEqual([
          { type: "missing", loc: ["body", "roles", "0", "scope"], msg: "is required", input: { role: "viewer" }, url: MISSING_URL }
        ])

        // A rule of the handler, not of decoding: the value is echoed all the same.
        const set = yield* newSet(tenant)
        const group = yield* newGroup(tenant, set.id)
        const otherId = yield* v1(tenant)("PUT", `/usage-group-sets/${set.id}/usage-groups/${group.id}`, {
          json: { id: set.id }
        })
        expect(otherId.status).toBe(422)
        expect(otherId.body.detail).toEqual([
          { type: "value_error", loc: ["body", "id"], msg: "must equal the usage_group_id of the path", input: set.id }
        ])
        // A rule of core (an unknown dimension), reported deep in the body.
        const filter = { operator: "and", filters: [{ field: { path: ["no_such"] }, operator: "=", value: "x" }] }
        const unknown = yield* v1(tenant)("PUT", `/usage-group-sets/${set.id}/usage-groups/${group.id}`, {
          json: { filter_expression: filter }
        })
        expect(unknown.status).toBe(422)
        expect(unknown.body.detail).toMatchObject([
          { loc: ["body", "filter_expression", "filters", "0", "field", "path"], input: ["no_such"] }
        ])
      }))

    it.effect("a v1 usage group set or group id that is not a UUID is a 422 at the path", () =>
      Effect.gen(function*() {
        const tenant = yield* seedTenant
        const set = yield* newSet(tenant)
        const get = yield* v1(tenant)("GET", "/usage-group-sets/not-a-uuid")
        expect(get.status).toBe(422)
        expect(get.body).toEqual({
          detail: [{ type: "value_error", loc: ["path", "usage_group_set_id"], msg: "must be a UUID", input: "not-a-uuid" }]
        })
        const put = yield* v1(tenant)("PUT", `/usage-group-sets/${set.id}/usage-groups/42`, { json: { name: "x" } })
        expect(put.status).toBe(422)
        expect(put.body.detail).toMatchObject([{ loc: ["path", "usage_group_id"], input: "42" }])
        const del = yield* v1(tenant)("DELETE", `/usage-group-sets/${set.id}/usage-groups/42`)
        expect(del.body.detail).toMatchObject([{ loc: ["path", "usage_group_id"], input: "42" }])
      }))

    it.effect("an unknown body member is a 422 at the member on a create, in both versions, and nothing is created", () =>
      Effect.gen(function*() {
        const tenant = yield* seedTenant
        const v2 = yield* call("POST", "/v2/teams", {
          token: tenant.adminKey,
          tenant: tenant.id,
          json: { name: "Data", default_memer_role: "viewer" }
        })
        expect(v2.status).toBe(422)
        expect(v2.body.details).toMatchObject([{ field: "body.default_memer_role", issue: "unexpected" }])
        const nested = yield* call("POST", "/v2/sso-groups", {
          token: tenant.adminKey,
          tenant: tenant.id,
          json: { name: "Data", roles: [{ role: "viewer", scope: { type: "organization", kind: "x" } }] }
        })
        expect(nested.status).toBe(422)
        expect(nested.body.details).toMatchObject([{ field: "body.roles[0].scope.kind", issue: "unexpected" }])

        const v1Reply = yield* v1(tenant)("POST", "/teams", { json: { name: "Data", default_memer_role: "viewer" } })
        expect(v1Reply.status).toBe(422)
        expect(v1Reply.body.detail).toMatchObject([
          { type: "extra_forbidden", loc: ["body", "default_memer_role"], input: "viewer" }
        ])
        const created = yield* call("POST", "/v2/teams", { token: tenant.adminKey, tenant: tenant.id, json: { name: "Data" } })
        expect(created.status).toBe(201)
      }))

    it.effect("an unknown query parameter is a 422, in both versions; known ones, repeated, still work", () =>
      Effect.gen(function*() {
        const tenant = yield* seedTenant
        const options = { token: tenant.adminKey, tenant: tenant.id }
        const typo = yield* call("GET", "/v2/insights?stauts__in=open", options)
        expect(typo.status).toBe(422)
        expect(typo.body.details).toEqual([
          { field: "query.stauts__in", issue: "unexpected", message: "is not a parameter of this operation" }
        ])
        // An operation that takes no query at all.
        const onCreate = yield* call("POST", "/v2/teams?dry_run=true", { ...options, json: { name: "Data" } })
        expect(onCreate.status).toBe(422)
        expect(onCreate.body.details).toMatchObject([{ field: "query.dry_run" }])
        const known = yield* call("GET", "/v2/insights?status__in=open&status__in=resolved&max_results=5", options)
        expect(known.status).toBe(200)

        const v1Reply = yield* v1(tenant)("GET", "/sso-group-mappings?limt=5")
        expect(v1Reply.status).toBe(422)
        expect(v1Reply.body).toEqual({
          detail: [{ type: "extra_forbidden", loc: ["query", "limt"], msg: "is not a parameter of this operation", input: "5" }]
        })
        expect((yield* v1(tenant)("GET", "/sso-group-mappings?limit=5")).status).toBe(200)
      }))

    it.effect("a body sent to an operation that takes none is a 422 at the body", () =>
      Effect.gen(function*() {
        const tenant = yield* seedTenant
        const insight = yield* upsertInsight(tenant.id, "WH_BODY")
        const client = { id: tenant.id, token: tenant.adminKey }
        const withBody = yield* insightsCall(client, "POST", `/${insight.id}/actions/viewed`, { json: { viewed: true } })
        expect(withBody.status).toBe(422)
        expect(withBody.body.details).toEqual([
          { field: "body", issue: "unexpected", message: "this operation takes no request body" }
        ])
        expect((yield* insightsCall(client, "POST", `/${insight.id}/actions/viewed`)).status).toBe(204)

        const set = yield* newSet(tenant)
        const group = yield* newGroup(tenant, set.id)
        const v1Delete = yield* v1(tenant)("DELETE", `/usage-group-sets/${set.id}/usage-groups/${group.id}`, {
          json: { id: group.id }
        })
        expect(v1Delete.status).toBe(422)
        expect(v1Delete.body.detail).toMatchObject([{ type: "extra_forbidden", loc: ["body"], input: { id: group.id } }])
      }))

    it.effect("messages say what was expected in plain words, one per invalid field", () =>
      Effect.gen(function*() {
        const tenant = yield* seedTenant
        const options = { token: tenant.adminKey, tenant: tenant.id }
        const notObject = yield* call("POST", "/v2/usage-group-sets", { ...options, json: "x" })
        expect(notObject.body.details).toEqual([
          { field: "body", issue: "invalid_type", message: "Expected a JSON object, actual \"x\"" }
        ])
        const notArray = yield* call("POST", "/v2/sso-groups", { ...options, json: { name: "Data", roles: "x" } })
        expect(notArray.body.details).toEqual([
          { field: "body.roles", issue: "invalid_type", message: "Expected an array, actual \"x\"" }
        ])
        const nullable = yield* call("POST", "/v2/ticket-links", {
          ...options,
          json: { item_type: "team", item_id: "x", provider: "jira", ticket_id: "T-1", ticket_url: "https://t/1", title: 4 }
        })
        expect(nullable.body.details).toEqual([
          { field: "body.title", issue: "invalid_type", message: "Expected string, actual 4" }
        ])
        const date = yield* call("POST", "/v2/api-keys", {
          ...options,
          json: { name: "ci", access: "read_only", scopes: ["*"], expires_at: "soon" }
        })
        expect(date.body.details).toEqual([{
          field: "body.expires_at",
          issue: "invalid_value",
          message: "Expected an ISO 8601 date-time such as 2024-05-01T12:00:00Z, actual \"soon\""
        }])
        const v1Reply = yield* v1(tenant)("POST", "/sso-group-mappings", { json: { sso_group_name: "Data", roles: "x" } })
        expect(v1Reply.body.detail).toEqual([
          { type: "list_type", loc: ["body", "roles"], msg: "Expected an array, actual \"x\"", input: "x" }
        ])
        for (const reply of [notObject, notArray, nullable, date]) expect(reply.text).not.toMatch(INTERNALS)
        expect(v1Reply.text).not.toMatch(INTERNALS)
      }))
  })

  layer(makeTestServer({ rateLimit: { requestsPerSecond: 0.01, burst: 50 } }), { excludeTestServices: true })(
    "rate limits",
    (it) => {
      it.effect("every v2 answer to a known credential carries RateLimit, also 404, 405, 413 and 415, and counts", () =>
        Effect.gen(function*() {
          const tenant = yield* seedTenant
          const options = { token: tenant.adminKey, tenant: tenant.id }
          const replies = [
            yield* call("GET", "/v2/nothing-here", options),
            yield* call("DELETE", "/v2/audit-logs", options),
            yield* call("POST", "/v2/teams", { ...options, json: { name: "x".repeat(2 * 1024 * 1024) } }),
            yield* call("POST", "/v2/teams", { ...options, body: "name=x", headers: { "content-type": "text/plain" } })
          ]
          expect(replies.map((reply) => reply.status)).toEqual([404, 405, 413, 415])
          expect(replies.map((reply) => reply.headers.get("ratelimit")?.split(";t=")[0])).toEqual([
            "\"default\";r=49",
            "\"default\";r=48",
            "\"default\";r=47",
            "\"default\";r=46"
          ])
          // The next operation sees what they spent.
          const next = yield* call("GET", "/v2/audit-logs", options)
          expect(next.headers.get("ratelimit")?.split(";t=")[0]).toBe("\"default\";r=45")
          // An unknown credential is told nothing about budgets.
          const stranger = yield* call("GET", "/v2/nothing-here", { token: "clk_unknown", tenant: tenant.id })
          expect(stranger.status).toBe(404)
          expect(stranger.headers.get("ratelimit")).toBeNull()
        }))
    }
  )

  layer(
    makeTestServer({
      rateLimit: { requestsPerSecond: 0.01, burst: 50 },
      authFailureLimit: { requestsPerSecond: 0.01, burst: 2 }
    }),
    { excludeTestServices: true }
  )("failed authentications", (it) => {
    it.effect("a refused credential spends one failed authentication of its address, not two", () =>
      Effect.gen(function*() {
        const tenant = yield* seedTenant
        const bad = call("GET", "/v2/audit-logs", { token: "clk_unknown", tenant: tenant.id })
        expect([(yield* bad).status, (yield* bad).status, (yield* bad).status]).toEqual([401, 401, 429])
      }))
  })
})
