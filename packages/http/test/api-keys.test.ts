/**
 * `/v2/api-keys` and logout: an admin lists, creates (token shown once) and revokes keys; a key
 * never creates a key with more than it holds; revocation and logout end the credential on the
 * next request; every change is audited.
 */
import { layer } from "@effect/vitest"
import { Effect } from "effect"
import { expect } from "vitest"
import { call, makeTestServer, seedTenant } from "./support/TestServer.js"

const auditOf = (tenant: { id: string; adminKey: string }, filter: string) =>
  Effect.map(
    call("GET", `/v2/audit-logs?${filter}&max_results=500`, { token: tenant.adminKey, tenant: tenant.id }),
    (reply) => reply.body.items as Array<Record<string, any>>
  )

layer(makeTestServer(), { excludeTestServices: true })("API keys over HTTP", (it) => {
  it.effect("an admin creates a key (token once, Location), lists it without any secret, and revokes it", () =>
    Effect.gen(function*() {
      const tenant = yield* seedTenant
      const as = { token: tenant.adminKey, tenant: tenant.id }
      const created = yield* call("POST", "/v2/api-keys", {
        ...as,
        json: { name: "ci reader", access: "read_only", scopes: ["insights:read"], expires_at: "2999-01-01T00:00:00Z" }
      })
      expect(created.status).toBe(201)
      expect(created.body).toMatchObject({
        name: "ci reader",
        access: "read_only",
        scopes: ["insights:read"],
        expires_at: "2999-01-01T00:00:00.000Z",
        revoked_at: null,
        last_used_at: null
      })
      expect(created.body.token).toMatch(/^clk_/)
      expect(created.headers.get("location")).toBe(`/v2/api-keys/${created.body.id}`)

      // The new key works, and its use shows in the listing.
      const used = yield* call("GET", "/v2/insights", { token: created.body.token, tenant: tenant.id })
      expect(used.status).toBe(200)
      const listed = yield* call("GET", "/v2/api-keys", as)
      expect(listed.status).toBe(200)
      expect(listed.body.row_count).toBe(listed.body.items.length)
      const shown = listed.body.items.find((item: { id: string }) => item.id === created.body.id)
      expect(shown.last_used_at).not.toBeNull()
      expect(listed.text).not.toContain(created.body.token)
      expect(listed.text).not.toContain('"token"')

      const revoked = yield* call("DELETE", `/v2/api-keys/${created.body.id}`, as)
      expect(revoked.status).toBe(204)
      expect((yield* call("GET", "/v2/insights", { token: created.body.token, tenant: tenant.id })).status).toBe(401)
      expect((yield* call("DELETE", `/v2/api-keys/${created.body.id}`, as)).status).toBe(404)

      const records = yield* auditOf(tenant, "resource__in=api_keys")
      const ours = records.filter((record) => record.record_id === created.body.id)
      expect(ours.map((record) => record.operation)).toEqual(["create", "delete"])
      // One audit policy: a deletion keeps what the creation recorded, as old_values.
      expect(ours[1]).toMatchObject({ old_values: ours[0].new_values, new_values: null })
      expect(JSON.stringify(ours)).not.toContain(created.body.token)
    }))

  it.effect("a key cannot create a key with more access or scopes than it holds; the refusal is audited", () =>
    Effect.gen(function*() {
      const tenant = yield* seedTenant
      const narrow = yield* tenant.apiKey("admin", ["insights:write", "teams:read"])
      const as = { token: narrow, tenant: tenant.id }
      const within = yield* call("POST", "/v2/api-keys", {
        ...as,
        json: { name: "sub", access: "read_write", scopes: ["insights:read", "insights:write", "teams:read"] }
      })
      expect(within.status).toBe(201)
      for (const json of [
        { name: "wider", access: "admin", scopes: ["*"] },
        { name: "other-area", access: "admin", scopes: ["teams:write"] },
        { name: "audit", access: "read_only", scopes: ["audit_logs:read"] }
      ]) {
        const refused = yield* call("POST", "/v2/api-keys", { ...as, json, headers: { "x-request-id": `refuse-${json.name}` } })
        expect(refused.status, json.name).toBe(403)
        expect(refused.body.code).toBe("forbidden")
      }
      const readWrite = yield* tenant.apiKey("admin", ["*"])
      // Lower access cannot mint higher: reached only with admin access, bounded by it too.
      expect((yield* call("POST", "/v2/api-keys", {
        token: readWrite,
        tenant: tenant.id,
        json: { name: "ok", access: "admin", scopes: ["*"] }
      })).status).toBe(201)
      const failures = yield* auditOf(tenant, "resource__in=api_keys&status__in=failure")
      expect(failures.map((record) => record.request_id).sort()).toEqual(
        ["refuse-audit", "refuse-other-area", "refuse-wider"]
      )
    }))

  it.effect("only admins manage keys: a read_write key and an editor get 403", () =>
    Effect.gen(function*() {
      const tenant = yield* seedTenant
      const readWrite = yield* tenant.apiKey("read_write")
      const editor = yield* tenant.userSession("editor")
      for (const token of [readWrite, editor.token]) {
        expect((yield* call("GET", "/v2/api-keys", { token, tenant: tenant.id })).status).toBe(403)
        expect((yield* call("POST", "/v2/api-keys", {
          token,
          tenant: tenant.id,
          json: { name: "x", access: "read_only", scopes: ["insights:read"] }
        })).status).toBe(403)
      }
      const admin = yield* tenant.userSession("admin")
      const byUser = yield* call("POST", "/v2/api-keys", {
        token: admin.token,
        tenant: tenant.id,
        json: { name: "from a user", access: "admin", scopes: ["*"] }
      })
      expect(byUser.status).toBe(201)
    }))

  it.effect("bad input is a 422 at the field; another tenant's key id is a 404", () =>
    Effect.gen(function*() {
      const tenant = yield* seedTenant
      const other = yield* seedTenant
      const as = { token: tenant.adminKey, tenant: tenant.id }
      const badScope = yield* call("POST", "/v2/api-keys", { ...as, json: { name: "x", access: "admin", scopes: ["everything"] } })
      expect(badScope.status).toBe(422)
      // A scope listed twice: 60,000 copies of one (1 MiB) were stored, and listed with the key ever after.
      const repeated = yield* call("POST", "/v2/api-keys", {
        ...as,
        json: { name: "x", access: "read_only", scopes: ["insights:read", "teams:read", ...Array(60_000).fill("insights:read")] }
      })
      expect(repeated.status).toBe(422)
      expect(repeated.body.details).toMatchObject([{ field: "body.scopes[2]", issue: "duplicate", message: "scope 'insights:read' is listed twice" }])
      const past = yield* call("POST", "/v2/api-keys", {
        ...as,
        json: { name: "x", access: "admin", scopes: ["*"], expires_at: "2001-01-01T00:00:00Z" }
      })
      expect(past.status).toBe(422)
      expect(past.body.details[0].field).toContain("expires_at")
      const theirs = yield* call("POST", "/v2/api-keys", {
        token: other.adminKey,
        tenant: other.id,
        json: { name: "theirs", access: "read_only", scopes: ["*"] }
      })
      expect((yield* call("DELETE", `/v2/api-keys/${theirs.body.id}`, as)).status).toBe(404)
      expect((yield* call("DELETE", "/v2/api-keys/not-a-uuid", as)).status).toBe(404)
      expect((yield* call("GET", "/v2/insights", { token: theirs.body.token, tenant: other.id })).status).toBe(200)
    }))
})

layer(makeTestServer(), { excludeTestServices: true })("logout", (it) => {
  it.effect("a session logs itself out: 204, the token is a 401 next, and a session logout event is audited", () =>
    Effect.gen(function*() {
      const tenant = yield* seedTenant
      const viewer = yield* tenant.userSession("viewer")
      const as = { token: viewer.token, tenant: tenant.id }
      expect((yield* call("GET", "/v2/insights", as)).status).toBe(200)
      expect((yield* call("DELETE", "/v2/sessions/current", { ...as, headers: { "x-request-id": "bye" } })).status).toBe(204)
      expect((yield* call("GET", "/v2/insights", as)).status).toBe(401)
      const events = yield* auditOf(tenant, "event_type__in=session&operation__in=logout")
      expect(events.map((record) => [record.changed_by, record.request_id])).toEqual([[viewer.email, "bye"]])
      // An API key has no session to end.
      expect((yield* call("DELETE", "/v2/sessions/current", { token: tenant.adminKey, tenant: tenant.id })).status).toBe(403)
    }))
})
