/**
 * No privilege escalation through the API: a grant can never give more than the granter holds
 * (core GrantRule). Each refusal is a 403 `forbidden` in the version's shape and is audited as a
 * failure; the escalations below all succeeded before the rule.
 */
import { layer } from "@effect/vitest"
import { Effect } from "effect"
import { randomUUID } from "node:crypto"
import { expect } from "vitest"
import { call, makeTestServer, seedTenant } from "./support/TestServer.js"

type Tenant = Effect.Effect.Success<typeof seedTenant>

const orgAdmin = { role: "admin", scope: { type: "organization" } }

/** A request with its own request id, so its audit record can be found. */
const send = (tenant: Tenant, token: string, method: string, path: string, json?: unknown) =>
  Effect.gen(function*() {
    const requestId = `esc-${randomUUID()}`
    const reply = yield* call(method, path, {
      token,
      tenant: tenant.id,
      headers: { "x-request-id": requestId },
      ...(json === undefined ? {} : { json })
    })
    return { ...reply, requestId }
  })

/** The audit records a request left. */
const auditedFor = (tenant: Tenant, requestId: string) =>
  Effect.map(
    call("GET", "/v2/audit-logs?max_results=500", { token: tenant.adminKey, tenant: tenant.id }),
    (reply) => (reply.body.items as Array<{ request_id: string; status: string }>).filter((record) => record.request_id === requestId)
  )

/** The reply is the v2 (problem+json) or v1 (`detail`) 403 of a refused grant, and the attempt is audited as a failure. */
const expectRefusedGrant = (tenant: Tenant, reply: { status: number; body: any; requestId: string }, version: "v1" | "v2") =>
  Effect.gen(function*() {
    expect(reply.status).toBe(403)
    if (version === "v2") expect(reply.body).toMatchObject({ code: "forbidden", status: 403 })
    expect(reply.body.detail).toMatch(/^not allowed to grant /)
    const records = yield* auditedFor(tenant, reply.requestId)
    expect(records.map((record) => record.status)).toEqual(["failure"])
  })

/** Whether the session may export the audit log: what only an organization admin may do. */
const isOrgAdmin = (tenant: Tenant, token: string) =>
  Effect.map(call("GET", "/v2/audit-logs", { token, tenant: tenant.id }), (reply) => reply.status === 200)

layer(makeTestServer(), { excludeTestServices: true })("no privilege escalation", (it) => {
  it.effect("v2: a teams:write key cannot make a member an organization admin through a team role", () =>
    Effect.gen(function*() {
      const tenant = yield* seedTenant
      const teamsKey = yield* tenant.apiKey("read_write", ["teams:write"])
      const member = yield* tenant.userSession("viewer")
      const team = yield* send(tenant, teamsKey, "POST", "/v2/teams", { name: "Escalators", default_member_role: "viewer" })
      expect(team.status).toBe(201)
      // Joining a team that carries no role gives nothing: allowed.
      expect((yield* send(tenant, teamsKey, "POST", `/v2/teams/${team.body.id}/members`, { identifier: member.email })).status).toBe(201)

      const granted = yield* send(tenant, teamsKey, "POST", `/v2/teams/${team.body.id}/roles`, orgAdmin)
      yield* expectRefusedGrant(tenant, granted, "v2")
      expect(granted.body.detail).toContain("audit_logs:export")
      expect(yield* isOrgAdmin(tenant, member.token)).toBe(false)
      const details = yield* call("GET", `/v2/teams/${team.body.id}`, { token: tenant.adminKey, tenant: tenant.id })
      expect(details.body.role_count).toBe(0)
    }))

  it.effect("v2: a users:write key cannot grant admin, nor any role that reads areas it cannot read", () =>
    Effect.gen(function*() {
      const tenant = yield* seedTenant
      const usersKey = yield* tenant.apiKey("read_write", ["users:write"])
      const member = yield* tenant.userSession("viewer")
      const path = `/v2/users/${encodeURIComponent(member.email)}/roles`
      yield* expectRefusedGrant(tenant, yield* send(tenant, usersKey, "POST", path, orgAdmin), "v2")
      yield* expectRefusedGrant(tenant, yield* send(tenant, usersKey, "POST", path, { role: "editor", scope: { type: "organization" } }), "v2")
      expect(yield* isOrgAdmin(tenant, member.token)).toBe(false)
      const roles = yield* call("GET", path, { token: tenant.adminKey, tenant: tenant.id })
      expect(roles.body.items.map((role: { role: string }) => role.role)).toEqual(["viewer"])
    }))

  it.effect("v2: what a key holds bounds what it grants: read_write * grants editor but not admin; an admin key grants admin", () =>
    Effect.gen(function*() {
      const tenant = yield* seedTenant
      const readWrite = yield* tenant.apiKey("read_write", ["*"])
      const adminOfUsers = yield* tenant.apiKey("admin", ["users:write"])
      const member = yield* tenant.userSession("viewer")
      const path = `/v2/users/${encodeURIComponent(member.email)}/roles`
      expect((yield* send(tenant, readWrite, "POST", path, { role: "editor", scope: { type: "organization" } })).status).toBe(201)
      yield* expectRefusedGrant(tenant, yield* send(tenant, readWrite, "POST", path, orgAdmin), "v2")
      // Admin access is not enough: admin confers every area, and this key writes one.
      yield* expectRefusedGrant(tenant, yield* send(tenant, adminOfUsers, "POST", path, orgAdmin), "v2")
      expect(yield* isOrgAdmin(tenant, member.token)).toBe(false)
      expect((yield* send(tenant, tenant.adminKey, "POST", path, orgAdmin)).status).toBe(201)
      expect(yield* isOrgAdmin(tenant, member.token)).toBe(true)
    }))

  it.effect("v2: joining a team that carries admin needs an admin; a team creator cannot make everyone admin", () =>
    Effect.gen(function*() {
      const tenant = yield* seedTenant
      const teamsKey = yield* tenant.apiKey("read_write", ["teams:write"])
      const member = yield* tenant.userSession("viewer")
      const creator = yield* tenant.userSession("team_creator")
      const admins = yield* send(tenant, tenant.adminKey, "POST", "/v2/teams", { name: "Admins", default_member_role: "viewer" })
      expect((yield* send(tenant, tenant.adminKey, "POST", `/v2/teams/${admins.body.id}/roles`, orgAdmin)).status).toBe(201)

      yield* expectRefusedGrant(tenant, yield* send(tenant, teamsKey, "POST", `/v2/teams/${admins.body.id}/members`, { identifier: member.email }), "v2")
      expect(yield* isOrgAdmin(tenant, member.token)).toBe(false)

      const everyone = yield* send(tenant, creator.token, "POST", "/v2/teams", { name: "Everyone", is_all_users: true, default_member_role: "admin" })
      yield* expectRefusedGrant(tenant, everyone, "v2")
      expect(yield* isOrgAdmin(tenant, creator.token)).toBe(false)
      // What the creator holds (reading) it may hand out.
      const viewers = yield* send(tenant, creator.token, "POST", "/v2/teams", { name: "Everyone", is_all_users: true, default_member_role: "viewer" })
      expect(viewers.status).toBe(201)
      yield* expectRefusedGrant(tenant, yield* send(tenant, teamsKey, "PATCH", `/v2/teams/${viewers.body.id}`, { default_member_role: "admin" }), "v2")
      expect(yield* isOrgAdmin(tenant, member.token)).toBe(false)
    }))

  it.effect("v2: an SSO mapping cannot grant more than its creator holds, and renaming hands its roles to another group", () =>
    Effect.gen(function*() {
      const tenant = yield* seedTenant
      const ssoKey = yield* tenant.apiKey("read_write", ["sso_groups:write"])
      yield* expectRefusedGrant(tenant, yield* send(tenant, ssoKey, "POST", "/v2/sso-groups", { name: "okta-all", roles: [orgAdmin] }), "v2")
      const mapping = yield* send(tenant, tenant.adminKey, "POST", "/v2/sso-groups", { name: "okta-admins", roles: [orgAdmin] })
      expect(mapping.status).toBe(201)
      yield* expectRefusedGrant(tenant, yield* send(tenant, ssoKey, "PATCH", `/v2/sso-groups/${mapping.body.id}`, { name: "okta-all" }), "v2")
      const unchanged = yield* call("GET", `/v2/sso-groups/${mapping.body.id}`, { token: tenant.adminKey, tenant: tenant.id })
      expect(unchanged.body.name).toBe("okta-admins")
    }))

  it.effect("v1: the same escalations are 403 details, audited as failures", () =>
    Effect.gen(function*() {
      const tenant = yield* seedTenant
      const teamsKey = yield* tenant.apiKey("read_write", ["teams:write"])
      const ssoKey = yield* tenant.apiKey("read_write", ["sso_groups:write"])
      const member = yield* tenant.userSession("viewer")
      const v1 = `/api/${tenant.id}`

      const everyone = yield* send(tenant, teamsKey, "POST", `${v1}/teams`, { name: "Everyone", is_all_users: true, default_member_role: "admin" })
      yield* expectRefusedGrant(tenant, everyone, "v1")

      const admins = yield* send(tenant, tenant.adminKey, "POST", `${v1}/teams`, { name: "Admins", is_all_users: false, default_member_role: "viewer" })
      expect(admins.status).toBe(200)
      expect((yield* send(tenant, tenant.adminKey, "POST", `/v2/teams/${admins.body.id}/roles`, orgAdmin)).status).toBe(201)
      yield* expectRefusedGrant(tenant, yield* send(tenant, teamsKey, "POST", `${v1}/teams/${admins.body.id}/members`, { identifier: member.email }), "v1")

      const allUsers = yield* send(tenant, tenant.adminKey, "POST", `${v1}/teams`, { name: "All", is_all_users: true, default_member_role: "viewer" })
      expect(allUsers.status).toBe(200)
      yield* expectRefusedGrant(tenant, yield* send(tenant, teamsKey, "PUT", `${v1}/teams/${allUsers.body.id}`, { name: "All", default_member_role: "admin" }), "v1")

      yield* expectRefusedGrant(
        tenant,
        yield* send(tenant, ssoKey, "POST", `${v1}/sso-group-mappings`, { sso_group_name: "okta-all", roles: [orgAdmin] }),
        "v1"
      )
      expect(yield* isOrgAdmin(tenant, member.token)).toBe(false)
    }))
})
