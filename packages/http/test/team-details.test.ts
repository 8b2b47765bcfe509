/** Team updates, details, members and roles through the real server, in v2 and the deprecated v1. */
import { layer } from "@effect/vitest"
import { Effect } from "effect"
import { randomUUID } from "node:crypto"
import { expect } from "vitest"
import { call, makeTestServer, seedTenant } from "./support/TestServer.js"

type Tenant = Effect.Effect.Success<typeof seedTenant>

const v2 = (tenant: Tenant) => (method: string, path: string, json?: unknown, headers: Record<string, string> = {}) =>
  call(method, `/v2${path}`, { token: tenant.adminKey, tenant: tenant.id, headers, ...(json === undefined ? {} : { json }) })

const v1 = (tenant: Tenant) => (method: string, path: string, json?: unknown) =>
  call(method, `/api/${tenant.id}${path}`, { token: tenant.adminKey, ...(json === undefined ? {} : { json }) })

const createTeam = (tenant: Tenant, json: unknown = { name: "Data", default_member_role: "editor" }) =>
  Effect.map(v2(tenant)("POST", "/teams", json), (reply) => reply.body)

/** The tenant's audit records of `table`, oldest first. */
const auditOf = (tenant: Tenant, table: string) =>
  Effect.map(v2(tenant)("GET", `/audit-logs?table_name__in=${table}`), (reply) => reply.body.items)

layer(makeTestServer(), { excludeTestServices: true })("teams v2", (it) => {
  it.effect("PATCH is a merge patch answered with the team and its new ETag, audited with old and new values", () =>
    Effect.gen(function*() {
      const tenant = yield* seedTenant
      const team = yield* createTeam(tenant)
      const reply = yield* v2(tenant)("PATCH", `/teams/${team.id}`, { name: "Data platform" }, { "x-request-id": "patch-1" })
      expect(reply.status).toBe(200)
      expect(reply.body).toMatchObject({ id: team.id, name: "Data platform", default_member_role: "editor" })
      expect(reply.headers.get("etag")).toBe(reply.body.etag)
      expect(reply.body.etag).not.toBe(team.etag)
      const [, update] = yield* auditOf(tenant, "teams")
      expect(update).toMatchObject({
        operation: "update",
        record_id: team.id,
        request_id: "patch-1",
        old_values: { name: "Data" },
        new_values: { name: "Data platform" }
      })
    }))

  it.effect("If-Match is optional; a stale one is 412 and a malformed one 422 on the header", () =>
    Effect.gen(function*() {
      const tenant = yield* seedTenant
      const team = yield* createTeam(tenant)
      const patch = (ifMatch: string) => v2(tenant)("PATCH", `/teams/${team.id}`, { default_member_role: "admin" }, { "if-match": ifMatch })
      expect((yield* patch("\"stale\"")).status).toBe(412)
      const malformed = yield* patch("not-an-etag")
      expect(malformed.status).toBe(422)
      expect(malformed.body.details[0].field).toBe("header.if-match")
      const applied = yield* patch(team.etag)
      expect(applied.status).toBe(200)
      expect(applied.body.default_member_role).toBe("admin")
      const again = yield* patch(team.etag)
      expect(again.status).toBe(412)
      expect(again.body).toMatchObject({ code: "precondition_failed", status: 412 })
    }))

  it.effect("PATCH refuses unknown fields, nulls and bad values naming the field; unknown and foreign ids are 404", () =>
    Effect.gen(function*() {
      const tenant = yield* seedTenant
      const other = yield* seedTenant
      const team = yield* createTeam(tenant)
      const cases = [
        [{ is_all_users: true }, "body.is_all_users"],
        [{ name: null }, "body.name"],
        [{ name: "  " }, "body.name"],
        [{ default_member_role: "owner" }, "body.default_member_role"]
      ] as const
      for (const [patch, field] of cases) {
        const reply = yield* v2(tenant)("PATCH", `/teams/${team.id}`, patch)
        expect(reply.status, JSON.stringify(patch)).toBe(422)
        expect(reply.body.details.map((detail: { field: string }) => detail.field)).toEqual([field])
      }
      for (const id of ["not-a-uuid", randomUUID()]) {
        expect((yield* v2(tenant)("PATCH", `/teams/${id}`, { name: "x" })).status).toBe(404)
      }
      expect((yield* v2(other)("PATCH", `/teams/${team.id}`, { name: "Mine" })).status).toBe(404)
      expect((yield* v2(other)("GET", `/teams/${team.id}`)).status).toBe(404)
    }))

  it.effect("members: users by email, SSO groups by name, 201 with Location; refusals are 422, 409 and 404", () =>
    Effect.gen(function*() {
      const tenant = yield* seedTenant
      const team = yield* createTeam(tenant)
      const member = yield* tenant.userSession("viewer")
      yield* v2(tenant)("POST", "/sso-groups", { name: "okta-data", roles: [{ role: "viewer", scope: { type: "organization" } }] })
      const add = (json: unknown, teamId: string = team.id) => v2(tenant)("POST", `/teams/${teamId}/members`, json)

      const user = yield* add({ identifier: member.email.toUpperCase() })
      expect(user.status).toBe(201)
      expect(user.headers.get("location")).toBe(`/v2/teams/${team.id}`)
      expect(user.body).toEqual({ id: expect.any(String), type: "user", identifier: member.email, role: "editor", added_at: expect.any(String) })
      const group = yield* add({ identifier: "okta-data", role: "admin" })
      expect(group.body).toMatchObject({ type: "sso_group", identifier: "okta-data", role: "admin" })

      expect((yield* add({ identifier: member.email })).status).toBe(409)
      const unknown = yield* add({ identifier: "ghost@example.com" })
      expect(unknown.status).toBe(422)
      expect(unknown.body.details[0]).toMatchObject({ field: "body.identifier", issue: "not_found" })
      expect((yield* add({ identifier: "x", role: "owner" })).body.details[0].field).toBe("body.role")
      expect((yield* add({})).body.details[0]).toMatchObject({ field: "body.identifier", issue: "missing" })
      expect((yield* add({ identifier: member.email }, randomUUID())).status).toBe(404)

      const everyone = yield* createTeam(tenant, { name: "Everyone", is_all_users: true })
      const toAllUsers = yield* add({ identifier: member.email }, everyone.id)
      expect(toAllUsers.status).toBe(409)
      expect(toAllUsers.body.code).toBe("conflict")
      expect((yield* auditOf(tenant, "team_members")).map((record: { record_id: string }) => record.record_id)).toEqual([
        user.body.id,
        group.body.id
      ])
    }))

  it.effect("roles: POST grants at a scope (201), DELETE revokes (204); bad roles, scope types and scope ids are 422s", () =>
    Effect.gen(function*() {
      const tenant = yield* seedTenant
      const team = yield* createTeam(tenant)
      const grant = (json: unknown) => v2(tenant)("POST", `/teams/${team.id}/roles`, json)

      const granted = yield* grant({ role: "editor", scope: { type: "dw_organization", id: "ACME" } })
      expect(granted.status).toBe(201)
      expect(granted.body).toMatchObject({
        role: "editor",
        scope: { type: "dw_organization", id: "ACME", name: "ACME" },
        dw_organization_name: "ACME",
        dw_account_uuid: null,
        usage_group_id: null
      })
      expect(granted.body.create_time).toBe(granted.body.created_at)
      expect((yield* grant({ role: "editor", scope: { type: "dw_organization", id: "ACME" } })).status).toBe(409)
      const cases = [
        [{ role: "owner", scope: { type: "organization" } }, "body.role"],
        [{ role: "viewer", scope: { type: "galaxy" } }, "body.scope.type"],
        [{ role: "viewer", scope: { type: "dw_account", id: randomUUID() } }, "body.scope.id"],
        [{ role: "viewer", scope: { type: "organization", id: "another-org" } }, "body.scope.id"],
        [{ role: "viewer", scope: { type: "usage_group" } }, "body.scope.id"]
      ] as const
      for (const [json, field] of cases) {
        const reply = yield* grant(json)
        expect(reply.status, JSON.stringify(json)).toBe(422)
        expect(reply.body.details.map((detail: { field: string }) => detail.field)).toEqual([field])
      }

      const revoke = (roleId: string) => v2(tenant)("DELETE", `/teams/${team.id}/roles/${roleId}`)
      const revoked = yield* revoke(granted.body.id)
      expect(revoked.status).toBe(204)
      expect(revoked.text).toBe("")
      expect((yield* revoke(granted.body.id)).status).toBe(404)
      expect((yield* auditOf(tenant, "team_roles")).map((record: { operation: string }) => record.operation)).toEqual(["create", "delete"])
    }))

  it.effect("GET returns the team with counts and one page of members and of roles, each with its own token", () =>
    Effect.gen(function*() {
      const tenant = yield* seedTenant
      const team = yield* createTeam(tenant)
      const emails = []
      for (const _ of [1, 2, 3]) {
        const member = yield* tenant.userSession("viewer")
        emails.push(member.email)
        yield* v2(tenant)("POST", `/teams/${team.id}/members`, { identifier: member.email })
      }
      for (const site of ["a", "b"]) {
        yield* v2(tenant)("POST", `/teams/${team.id}/roles`, { role: "viewer", scope: { type: "bi_site", id: site } })
      }
      const read = (query: string) => v2(tenant)("GET", `/teams/${team.id}?${query}`)

      const first = yield* read("members_max_results=2&roles_max_results=1")
      expect(first.status).toBe(200)
      expect(first.headers.get("etag")).toBe(team.etag)
      expect(first.body).toMatchObject({ id: team.id, etag: team.etag, member_count: 3, role_count: 2 })
      expect(first.body.members.items).toHaveLength(2)
      expect(first.body.roles.items.map((role: { scope: { id: string } }) => role.scope.id)).toEqual(["a"])
      const rest = yield* read(`members_max_results=2&members_page_token=${first.body.members.page_token}&roles_page_token=${first.body.roles.page_token}`)
      expect(rest.body.members).toMatchObject({ page_token: null })
      expect([...first.body.members.items, ...rest.body.members.items].map((m: { identifier: string }) => m.identifier).sort())
        .toEqual(emails.sort())
      expect(rest.body.roles.items.map((role: { scope: { id: string } }) => role.scope.id)).toEqual(["b"])

      const swapped = yield* read(`roles_page_token=${first.body.members.page_token}`)
      expect(swapped.status).toBe(400)
      expect(swapped.body.code).toBe("invalid_page_token")
      const tooMany = yield* read("members_max_results=501")
      expect(tooMany.status).toBe(422)
      expect(tooMany.body.details[0].field).toBe("query.members_max_results")
    }))

  it.effect("the all-users team lists every member of the organization with its default role", () =>
    Effect.gen(function*() {
      const tenant = yield* seedTenant
      const editor = yield* tenant.userSession("editor")
      const everyone = yield* createTeam(tenant, { name: "Everyone", is_all_users: true, default_member_role: "viewer" })
      const reply = yield* v2(tenant)("GET", `/teams/${everyone.id}`)
      expect(reply.body.member_count).toBe(1)
      expect(reply.body.members.items).toEqual([
        { id: expect.any(String), type: "user", identifier: editor.email, role: "viewer", added_at: expect.any(String) }
      ])
    }))
})

layer(makeTestServer(), { excludeTestServices: true })("teams v1", (it) => {
  it.effect("PUT updates the name and, when given, the default member role; answered in the v1 shape", () =>
    Effect.gen(function*() {
      const tenant = yield* seedTenant
      const team = yield* createTeam(tenant)
      const renamed = yield* v1(tenant)("PUT", `/teams/${team.id}`, { name: "Renamed" })
      expect(renamed.status).toBe(200)
      expect(renamed.body).toMatchObject({ id: team.id, name: "Renamed", default_member_role: "editor" })
      expect(renamed.body.etag).toBeUndefined()
      expect(renamed.headers.get("link")).toBe(`</v2/teams/${team.id}>; rel="successor-version"`)
      const both = yield* v1(tenant)("PUT", `/teams/${team.id}`, { name: "Both", default_member_role: "viewer" })
      expect(both.body).toMatchObject({ name: "Both", default_member_role: "viewer" })

      const missing = yield* v1(tenant)("PUT", `/teams/${team.id}`, { default_member_role: "viewer" })
      expect(missing.status).toBe(422)
      expect(missing.body.detail).toEqual([
        { type: "missing", loc: ["body", "name"], msg: "is required", input: { default_member_role: "viewer" }, url: "https://errors.pydantic.dev/2.10/v/missing" }
      ])
      const unknown = yield* v1(tenant)("PUT", `/teams/${randomUUID()}`, { name: "x" })
      expect(unknown.status).toBe(404)
      expect(typeof unknown.body.detail).toBe("string")
    }))

  it.effect("GET pages members and roles with limit and offset each, in the v1 shapes", () =>
    Effect.gen(function*() {
      const tenant = yield* seedTenant
      const team = yield* createTeam(tenant)
      const first = yield* tenant.userSession("viewer")
      const second = yield* tenant.userSession("viewer")
      const added = yield* v1(tenant)("POST", `/teams/${team.id}/members`, { identifier: first.email })
      expect(added.status).toBe(200)
      expect(added.body).toMatchObject({ type: "user", identifier: first.email, role: "editor" })
      yield* v1(tenant)("POST", `/teams/${team.id}/members`, { identifier: second.email })
      yield* v2(tenant)("POST", `/teams/${team.id}/roles`, { role: "viewer", scope: { type: "organization" } })

      const page = yield* v1(tenant)("GET", `/teams/${team.id}?members_limit=1&members_offset=1&roles_limit=5`)
      expect(page.status).toBe(200)
      expect(page.body).toMatchObject({ id: team.id, member_count: 2, role_count: 1 })
      expect(page.body.members).toHaveLength(1)
      expect(Object.keys(page.body.roles[0]).sort()).toEqual(
        ["created_at", "dw_account_uuid", "dw_organization_name", "id", "role", "usage_group_id"]
      )
      for (const [query, loc] of [["members_limit=0", "members_limit"], ["roles_limit=1001", "roles_limit"], ["members_offset=-1", "members_offset"]]) {
        const invalid = yield* v1(tenant)("GET", `/teams/${team.id}?${query}`)
        expect(invalid.status, query).toBe(422)
        expect(invalid.body.detail[0].loc).toEqual(["query", loc])
      }
    }))

  it.effect("DELETE of a team role answers {success: true}; an unknown role is a 404 detail", () =>
    Effect.gen(function*() {
      const tenant = yield* seedTenant
      const team = yield* createTeam(tenant)
      const granted = yield* v2(tenant)("POST", `/teams/${team.id}/roles`, { role: "viewer", scope: { type: "organization" } })
      const deleted = yield* v1(tenant)("DELETE", `/teams/${team.id}/roles/${granted.body.id}`)
      expect(deleted.status).toBe(200)
      expect(deleted.body).toEqual({ success: true })
      expect(deleted.headers.get("deprecation")).not.toBeNull()
      const again = yield* v1(tenant)("DELETE", `/teams/${team.id}/roles/${granted.body.id}`)
      expect(again.status).toBe(404)
      expect(again.body).toEqual({ detail: `team_role ${granted.body.id} not found` })
    }))

  it.effect("adding to the all-users team is a 409 detail", () =>
    Effect.gen(function*() {
      const tenant = yield* seedTenant
      const member = yield* tenant.userSession("viewer")
      const everyone = yield* createTeam(tenant, { name: "Everyone", is_all_users: true })
      const reply = yield* v1(tenant)("POST", `/teams/${everyone.id}/members`, { identifier: member.email })
      expect(reply.status).toBe(409)
      expect(reply.body).toEqual({ detail: "the all-users team includes every member of the organization already" })
    }))
})
