/** Team creation through the real server, in v2 and in the deprecated v1. */
import { layer } from "@effect/vitest"
import { Effect } from "effect"
import { expect } from "vitest"
import { call, makeTestServer, seedTenant } from "./support/TestServer.js"

type Tenant = Effect.Effect.Success<typeof seedTenant>

/** The newest `teams` audit record of the tenant. */
const lastTeamsRecord = (tenant: Tenant) =>
  Effect.map(
    call("GET", "/v2/audit-logs?resource__in=teams&sort_order=desc&max_results=1", {
      token: tenant.adminKey,
      tenant: tenant.id
    }),
    (reply) => reply.body.items[0]
  )

layer(makeTestServer(), { excludeTestServices: true })("teams", (it) => {
  it.effect("POST /v2/teams answers 201 with Location, ETag and the v2 team, and audits it with the request id", () =>
    Effect.gen(function*() {
      const tenant = yield* seedTenant
      const reply = yield* call("POST", "/v2/teams", {
        token: tenant.adminKey,
        tenant: tenant.id,
        headers: { "x-request-id": "req-create-team-1" },
        json: { name: "  Data platform ", default_member_role: "editor" }
      })
      expect(reply.status).toBe(201)
      const team = reply.body
      expect(Object.keys(team).sort()).toEqual(
        ["create_time", "created_at", "default_member_role", "etag", "id", "is_all_users", "name", "update_time", "updated_at"]
      )
      expect(team).toMatchObject({ name: "Data platform", is_all_users: false, default_member_role: "editor" })
      expect(team.create_time).toBe(team.created_at)
      expect(team.update_time).toBe(team.updated_at)
      expect(reply.headers.get("location")).toBe(`/v2/teams/${team.id}`)
      expect(reply.headers.get("etag")).toBe(team.etag)
      expect(team.etag).toMatch(/^"[A-Za-z0-9_-]{22}"$/)
      expect(reply.headers.get("x-request-id")).toBe("req-create-team-1")

      expect(yield* lastTeamsRecord(tenant)).toMatchObject({
        resource: "teams",
        table_name: "teams",
        record_id: team.id,
        operation: "create",
        status: "success",
        changed_by_type: "api_key",
        request_id: "req-create-team-1",
        new_values: { name: "Data platform", is_all_users: false, default_member_role: "editor" }
      })
    }))

  it.effect("a new team is not the all-users team and gives new members the viewer role, unless told otherwise", () =>
    Effect.gen(function*() {
      const tenant = yield* seedTenant
      const reply = yield* call("POST", "/v2/teams", { token: tenant.adminKey, tenant: tenant.id, json: { name: "Ops" } })
      expect(reply.body).toMatchObject({ is_all_users: false, default_member_role: "viewer" })
    }))

  it.effect("POST /api/{organization_id}/teams answers 200 with the v1 team", () =>
    Effect.gen(function*() {
      const tenant = yield* seedTenant
      const reply = yield* call("POST", `/api/${tenant.id}/teams`, {
        token: tenant.adminKey,
        json: { name: "Finance", is_all_users: false, default_member_role: "admin" }
      })
      expect(reply.status).toBe(200)
      expect(Object.keys(reply.body).sort()).toEqual(
        ["created_at", "default_member_role", "id", "is_all_users", "name", "updated_at"]
      )
      expect(reply.body).toMatchObject({ name: "Finance", default_member_role: "admin" })
      expect((yield* lastTeamsRecord(tenant)).record_id).toBe(reply.body.id)
    }))

  it.effect("a second all-users team is a 409 in both versions, each in its own error shape", () =>
    Effect.gen(function*() {
      const tenant = yield* seedTenant
      const allUsers = { name: "Everyone", is_all_users: true }
      expect((yield* call("POST", "/v2/teams", { token: tenant.adminKey, tenant: tenant.id, json: allUsers })).status)
        .toBe(201)

      const v2 = yield* call("POST", "/v2/teams", { token: tenant.adminKey, tenant: tenant.id, json: allUsers })
      expect(v2.status).toBe(409)
      expect(v2.headers.get("content-type")).toBe("application/problem+json")
      expect(v2.body).toMatchObject({ status: 409, code: "already_exists", title: "Already exists" })

      const v1 = yield* call("POST", `/api/${tenant.id}/teams`, { token: tenant.adminKey, json: allUsers })
      expect(v1.status).toBe(409)
      expect(v1.body).toEqual({ detail: "the organization already has an all-users team" })
    }))

  it.effect("v1 validation failures are FastAPI 422s naming the body field", () =>
    Effect.gen(function*() {
      const tenant = yield* seedTenant
      const create = (json: unknown) => call("POST", `/api/${tenant.id}/teams`, { token: tenant.adminKey, json })

      const missing = yield* create({ is_all_users: false })
      expect(missing.status).toBe(422)
      expect(missing.body).toEqual({
        detail: [{ type: "missing", loc: ["body", "name"], msg: "is required", input: { is_all_users: false }, url: "https://errors.pydantic.dev/2.10/v/missing" }]
      })

      const empty = yield* create({ name: "   " })
      expect(empty.status).toBe(422)
      expect(empty.body.detail).toEqual([{ type: "value_error", loc: ["body", "name"], msg: "must not be empty", input: "   " }])

      const badRole = yield* create({ name: "A", default_member_role: "boss" })
      expect(badRole.status).toBe(422)
      expect(badRole.body.detail).toEqual([{
        type: "enum",
        loc: ["body", "default_member_role"],
        msg: "Expected \"admin\" | \"editor\" | \"viewer\", actual \"boss\"",
        input: "boss"
      }])

      const wrongType = yield* create({ name: "A", is_all_users: "yes" })
      expect(wrongType.body.detail).toEqual([
        { type: "bool_type", loc: ["body", "is_all_users"], msg: "Expected boolean, actual \"yes\"", input: "yes" }
      ])
    }))

  it.effect("v2 validation failures are problem details listing every invalid body field", () =>
    Effect.gen(function*() {
      const tenant = yield* seedTenant
      const reply = yield* call("POST", "/v2/teams", {
        token: tenant.adminKey,
        tenant: tenant.id,
        json: { name: 5, default_member_role: "boss" }
      })
      expect(reply.status).toBe(422)
      expect(reply.body.detail).toBe("2 fields are invalid: body.name, body.default_member_role")
      expect(reply.body.details).toEqual([
        { field: "body.name", issue: "invalid_type", message: "Expected string, actual 5" },
        {
          field: "body.default_member_role",
          issue: "invalid_enum",
          message: "Expected \"admin\" | \"editor\" | \"viewer\", actual \"boss\""
        }
      ])
    }))

  it.effect("a viewer may not create teams, and the refused attempt is audited as a failure", () =>
    Effect.gen(function*() {
      const tenant = yield* seedTenant
      const viewer = yield* tenant.userSession("viewer")
      const reply = yield* call("POST", "/v2/teams", { token: viewer.token, tenant: tenant.id, json: { name: "Mine" } })
      expect(reply.status).toBe(403)
      expect(reply.body.code).toBe("forbidden")
      expect(yield* lastTeamsRecord(tenant)).toMatchObject({
        operation: "create",
        status: "failure",
        record_id: null,
        changed_by: viewer.email,
        changed_by_type: "user",
        request_id: reply.headers.get("x-request-id"),
        new_values: { name: "Mine" }
      })
    }))

  it.effect("a team creator may create teams; a read-only key may not", () =>
    Effect.gen(function*() {
      const tenant = yield* seedTenant
      const creator = yield* tenant.userSession("team_creator")
      const readOnly = yield* tenant.apiKey("read_only")
      const create = (token: string) => call("POST", "/v2/teams", { token, tenant: tenant.id, json: { name: "T" } })
      expect((yield* create(creator.token)).status).toBe(201)
      expect((yield* create(readOnly)).status).toBe(403)
    }))

  it.effect("v1 responses announce deprecation and their v2 successor; v2 responses do not", () =>
    Effect.gen(function*() {
      const tenant = yield* seedTenant
      const v1 = yield* call("POST", `/api/${tenant.id}/teams`, { token: tenant.adminKey, json: { name: "Legacy" } })
      expect(v1.headers.get("deprecation")).toBe("@1767225600")
      expect(v1.headers.get("sunset")).toBe("Fri, 01 Jan 2027 00:00:00 GMT")
      expect(v1.headers.get("link")).toBe("</v2/teams>; rel=\"successor-version\"")

      // Errors too: a client learns of the deprecation whatever it sent.
      const failed = yield* call("POST", `/api/${tenant.id}/teams`, { json: { name: "Legacy" } })
      expect(failed.status).toBe(401)
      expect(failed.headers.get("deprecation")).toBe("@1767225600")

      const v2 = yield* call("POST", "/v2/teams", { token: tenant.adminKey, tenant: tenant.id, json: { name: "New" } })
      expect(v2.headers.get("deprecation")).toBeNull()
      expect(v2.headers.get("sunset")).toBeNull()
    }))
})

layer(
  makeTestServer({
    deprecation: { deprecatedAt: new Date("2025-03-01T12:00:00Z"), sunsetAt: new Date("2025-09-30T00:00:00Z") }
  }),
  { excludeTestServices: true }
)("teams with a configured deprecation policy", (it) => {
  it.effect("v1 headers carry the configured dates", () =>
    Effect.gen(function*() {
      const tenant = yield* seedTenant
      const v1 = yield* call("POST", `/api/${tenant.id}/teams`, { token: tenant.adminKey, json: { name: "Legacy" } })
      expect(v1.headers.get("deprecation")).toBe(`@${Date.parse("2025-03-01T12:00:00Z") / 1000}`)
      expect(v1.headers.get("sunset")).toBe("Tue, 30 Sep 2025 00:00:00 GMT")
    }))
})
