/** Credentials, tenants and request ids, through the real server. */
import { Actor, ApiKeys, ApiToken, Sessions } from "@costline/core"
import { layer } from "@effect/vitest"
import { DateTime, Effect } from "effect"
import { expect } from "vitest"
import { at, call, makeTestServer, seedTenant } from "./support/TestServer.js"

layer(makeTestServer(), { excludeTestServices: true })("authentication and tenancy", (it) => {
  /** Every way a bearer credential can be wrong, for a fresh tenant. */
  const badCredentials = Effect.gen(function*() {
    const tenant = yield* seedTenant
    const apiKeys = yield* ApiKeys.ApiKeys
    const sessions = yield* Sessions.Sessions
    const revoked = yield* apiKeys.create(Actor.Actor.system(), tenant.id, { name: "old", access: "admin", scopes: ["*"] })
    yield* apiKeys.revoke(Actor.Actor.system(), tenant.id, revoked.key.id)
    const expiredKey = yield* apiKeys.create(Actor.Actor.system(), tenant.id, {
      name: "expired",
      access: "admin",
      scopes: ["*"],
      expiresAt: DateTime.unsafeMake("2001-01-01T00:00:00Z")
    })
    const admin = yield* tenant.userSession("admin")
    // Minted in 2000 with the default lifetime of hours: long expired.
    const expiredSession = yield* sessions.create(tenant.id, admin.email).pipe(at("2000-01-01T00:00:00Z"))
    const authorization: ReadonlyArray<readonly [string, string | undefined]> = [
      ["missing", undefined],
      ["not bearer", `Basic ${Buffer.from("user:pass").toString("base64")}`],
      ["bearer without token", "Bearer"],
      ["malformed token", "Bearer clk_nope"],
      ["bad checksum", `Bearer ${tenant.adminKey.slice(0, -1)}${tenant.adminKey.endsWith("A") ? "B" : "A"}`],
      ["unknown token", `Bearer ${ApiToken.generate("api_key")}`],
      ["unknown session", `Bearer ${ApiToken.generate("session")}`],
      ["revoked key", `Bearer ${revoked.token}`],
      ["expired key", `Bearer ${expiredKey.token}`],
      ["expired session", `Bearer ${expiredSession.token}`]
    ]
    return { tenant, authorization }
  })

  it.effect("answers every bad credential with the same 401 and WWW-Authenticate: Bearer (v2)", () =>
    Effect.gen(function*() {
      const { authorization, tenant } = yield* badCredentials
      const bodies = new Set<string>()
      for (const [what, header] of authorization) {
        const reply = yield* call("GET", "/v2/audit-logs", {
          tenant: tenant.id,
          headers: { "x-request-id": "same-id", ...(header === undefined ? {} : { authorization: header }) }
        })
        expect(reply.status, what).toBe(401)
        expect(reply.headers.get("www-authenticate"), what).toBe("Bearer")
        bodies.add(reply.text)
      }
      expect(bodies.size).toBe(1)
      expect(JSON.parse([...bodies][0]!)).toMatchObject({ status: 401, code: "unauthorized", request_id: "same-id" })
    }))

  it.effect("answers every bad credential with the same 401 (v1)", () =>
    Effect.gen(function*() {
      const { authorization, tenant } = yield* badCredentials
      const bodies = new Set<string>()
      for (const [what, header] of authorization) {
        const reply = yield* call("POST", `/api/${tenant.id}/teams`, {
          json: { name: "x" },
          headers: header === undefined ? {} : { authorization: header }
        })
        expect(reply.status, what).toBe(401)
        expect(reply.headers.get("www-authenticate"), what).toBe("Bearer")
        bodies.add(reply.text)
      }
      expect([...bodies]).toEqual([JSON.stringify({ detail: "missing or invalid credentials" })])
    }))

  it.effect("checks credentials before the tenant header", () =>
    Effect.gen(function*() {
      expect((yield* call("GET", "/v2/audit-logs")).status).toBe(401)
    }))

  it.effect("a v2 request without x-tenant-id is a 422 naming the header", () =>
    Effect.gen(function*() {
      const tenant = yield* seedTenant
      for (const headers of [{}, { "x-tenant-id": "  " }]) {
        const reply = yield* call("GET", "/v2/audit-logs", { token: tenant.adminKey, headers })
        expect(reply.status).toBe(422)
        expect(reply.body).toMatchObject({
          code: "validation_failed",
          details: [{ field: "header.x-tenant-id", issue: "missing", message: "the x-tenant-id header is required" }]
        })
      }
    }))

  it.effect("a credential of another organization is forbidden, in v2 and in v1", () =>
    Effect.gen(function*() {
      const mine = yield* seedTenant
      const theirs = yield* seedTenant
      const v2 = yield* call("GET", "/v2/audit-logs", { token: mine.adminKey, tenant: theirs.id })
      expect(v2.status).toBe(403)
      expect(v2.body).toMatchObject({ code: "forbidden", detail: "the credential does not belong to this organization" })

      const v1 = yield* call("POST", `/api/${theirs.id}/teams`, { token: mine.adminKey, json: { name: "x" } })
      expect(v1.status).toBe(403)
      expect(v1.body).toEqual({ detail: "the credential does not belong to this organization" })
    }))

  it.effect("echoes a sane x-request-id and replaces anything else with a fresh UUID", () =>
    Effect.gen(function*() {
      const echoed = yield* call("GET", "/v2/audit-logs", { headers: { "x-request-id": "trace-42:span.7" } })
      expect(echoed.headers.get("x-request-id")).toBe("trace-42:span.7")
      expect(echoed.body.request_id).toBe("trace-42:span.7")

      const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/
      for (const headers of [{}, { "x-request-id": "has spaces" }, { "x-request-id": "x".repeat(129) }]) {
        const reply = yield* call("GET", "/v2/audit-logs", { headers })
        expect(reply.headers.get("x-request-id")).toMatch(uuid)
        expect(reply.body.request_id).toBe(reply.headers.get("x-request-id"))
      }
    }))
  // A key in use is answered from its verification in the tenant middleware's one step when every
  // rule passes without an effect; each rule must still refuse it, in its order, with what it records.
  it.effect("a key in use still meets every rule: tenant, permission (audited), declared input, revocation", () =>
    Effect.gen(function*() {
      const tenant = yield* seedTenant
      const other = yield* seedTenant
      const reader = yield* tenant.apiKey("read_only")
      const warm = (token: string) => call("GET", "/v2/insights?max_results=1", { token, tenant: tenant.id })
      for (const token of [tenant.adminKey, reader]) {
        for (let i = 0; i < 3; i++) expect((yield* warm(token)).status).toBe(200)
      }

      const wrongTenant = yield* call("GET", "/v2/audit-logs", { token: tenant.adminKey, tenant: other.id })
      expect(wrongTenant.status).toBe(403)
      const v1WrongTenant = yield* call("POST", `/api/${other.id}/teams`, { token: tenant.adminKey, json: { name: "x" } })
      expect(v1WrongTenant.status).toBe(403)

      const refusedWrite = yield* call("POST", "/v2/teams", { token: reader, tenant: tenant.id, json: { name: "cached-reader" } })
      expect(refusedWrite.status).toBe(403)
      const audit = yield* call("GET", "/v2/audit-logs?max_results=50", { token: tenant.adminKey, tenant: tenant.id })
      expect(audit.body.items.some((record: { status: string; table_name: string }) => record.status === "failure" && record.table_name === "teams"))
        .toBe(true)

      const unknownParameter = yield* call("GET", "/v2/audit-logs?stauts=1", { token: tenant.adminKey, tenant: tenant.id })
      expect(unknownParameter.status).toBe(422)
      expect(JSON.stringify(unknownParameter.body)).toContain("query.stauts")

      const noTenant = yield* call("GET", "/v2/audit-logs", { token: tenant.adminKey })
      expect(noTenant.status).toBe(422)

      const apiKeys = yield* ApiKeys.ApiKeys
      const listed = yield* apiKeys.list(tenant.id)
      const readerKey = listed.find((key) => key.access === "read_only")!
      yield* apiKeys.revoke(Actor.Actor.system(), tenant.id, readerKey.id)
      expect((yield* warm(reader)).status).toBe(401)
      expect((yield* warm(tenant.adminKey)).status).toBe(200)
    }))
})
