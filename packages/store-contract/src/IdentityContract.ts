/** Contract: organizations, users, API keys, sessions and role grants, through the real services. */
import { describe, expect, type Vitest } from "@effect/vitest"
import { DateTime, Effect, Option, TestClock } from "effect"
import { Actor, ApiKeys, ApiToken, Auth, Identity, IdentityRepo, Ids, Organizations, RoleAssignment, Sessions, Users } from "@costline/core"
import { type ContractServices, drainExport, freshOrganization, ids } from "./Fixtures.js"

const system = Actor.Actor.system()

const bearer = (token: string) => `Bearer ${token}`

export const identityContract = (it: Vitest.MethodsNonLive<ContractServices>) => {
  describe("organizations", () => {
    it.effect("reads back what was created, and audits a settings change as an organization event", () =>
      Effect.gen(function*() {
        const organizations = yield* Organizations.Organizations
        const organization = yield* freshOrganization
        expect(yield* organizations.get(organization.id)).toEqual(organization)

        const settings = { trial_end: "2030-01-31", warehouse: { size: "XS", credits: 1.5, shared: false, tags: [null, "a"] } }
        yield* organizations.updateSettings(system, organization.id, settings)
        expect((yield* organizations.get(organization.id)).settings).toEqual(settings)
        const { records } = yield* drainExport(organization.id)
        expect(records).toHaveLength(1)
        expect(records[0]).toMatchObject({
          event_type: "organization",
          operation: "update",
          old_values: {},
          new_values: settings
        })
      }))

    it.effect("refuses a second organization with the same id, and answers NotFound for an unknown one", () =>
      Effect.gen(function*() {
        const organizations = yield* Organizations.Organizations
        const organization = yield* freshOrganization
        const duplicate = yield* Effect.flip(organizations.create({ id: organization.id, name: "again" }))
        expect(duplicate._tag).toBe("AlreadyExists")
        const missing = yield* Effect.flip(organizations.get(`${organization.id}-missing` as Ids.OrganizationId))
        expect(missing._tag).toBe("NotFound")
      }))
  })

  describe("users", () => {
    it.effect("finds a member by email in any case; the same email in another case is refused, leaving nothing", () =>
      Effect.gen(function*() {
        const users = yield* Users.Users
        const roles = yield* IdentityRepo.RoleAssignmentsRepo
        const organization = yield* freshOrganization
        const added = yield* users.add(system, organization.id, { email: "Mixed.Case@Example.COM", role: "admin" })
        expect(yield* users.findByEmail(organization.id, "MIXED.case@example.com")).toEqual(added)

        const duplicate = yield* Effect.flip(
          users.add(system, organization.id, { email: "mixed.CASE@example.com", role: "viewer" })
        )
        expect(duplicate._tag).toBe("AlreadyExists")
        const grants = yield* roles.listForSubject(organization.id, "user", added.id)
        expect(grants.map((grant) => grant.role)).toEqual(["admin"])
        expect((yield* drainExport(organization.id)).records).toHaveLength(1)
      }))

    it.effect("the store itself enforces one email per organization, ignoring case", () =>
      Effect.gen(function*() {
        const repo = yield* IdentityRepo.UsersRepo
        const [first, second] = [yield* freshOrganization, yield* freshOrganization]
        const user = (organizationId: Ids.OrganizationId, email: string) =>
          Effect.map(Ids.newId<"UserId">(), (id) =>
            new Identity.User({ id, organization_id: organizationId, email, created_at: DateTime.unsafeMake(0) }))
        const stored = yield* user(first.id, "Dana@Example.com")
        yield* repo.insert(stored)
        const duplicate = yield* Effect.flip(Effect.flatMap(user(first.id, "dana@EXAMPLE.com"), repo.insert))
        expect(duplicate._tag).toBe("AlreadyExists")
        yield* Effect.flatMap(user(second.id, "dana@example.com"), repo.insert)
        expect(yield* repo.findByEmail(first.id, "DANA@example.COM")).toEqual(Option.some(stored))
        expect(yield* repo.findById(second.id, stored.id)).toEqual(Option.none())
      }))

    it.effect("removing a member ends their sessions, drops their roles and audits a users event", () =>
      Effect.gen(function*() {
        const users = yield* Users.Users
        const auth = yield* Auth.Auth
        const organization = yield* freshOrganization
        const user = yield* users.add(system, organization.id, { email: "leaver@example.com", role: "editor" })
        const { token } = yield* (yield* Sessions.Sessions).create(organization.id, user.email)

        yield* users.remove(system, organization.id, "Leaver@example.com")
        expect((yield* Effect.flip(users.findByEmail(organization.id, user.email)))._tag).toBe("NotFound")
        expect((yield* Effect.flip(auth.authenticate(bearer(token))))._tag).toBe("Unauthorized")
        expect(yield* (yield* IdentityRepo.RoleAssignmentsRepo).listForSubject(organization.id, "user", user.id)).toEqual([])
        const { records } = yield* drainExport(organization.id)
        expect(records.at(-1)).toMatchObject({
          event_type: "users",
          operation: "remove",
          record_id: user.id,
          old_values: { email: user.email, roles: ["editor"] }
        })
      }))
  })

  describe("API keys and authentication", () => {
    it.effect("a key's token authenticates as the key until revoked; creation and revocation are audited", () =>
      Effect.gen(function*() {
        const apiKeys = yield* ApiKeys.ApiKeys
        const auth = yield* Auth.Auth
        const organization = yield* freshOrganization
        const { key, token } = yield* apiKeys.create(system, organization.id, {
          name: "ci",
          access: "read_write",
          scopes: ["teams:write", "audit_logs:read"]
        })
        expect(yield* auth.authenticate(bearer(token))).toEqual({
          _tag: "ApiKey",
          organizationId: organization.id,
          keyId: key.id,
          name: "ci",
          access: "read_write",
          scopes: ["teams:write", "audit_logs:read"]
        })

        yield* apiKeys.revoke(system, organization.id, key.id)
        expect((yield* Effect.flip(auth.authenticate(bearer(token))))._tag).toBe("Unauthorized")
        expect((yield* Effect.flip(apiKeys.revoke(system, organization.id, key.id)))._tag).toBe("NotFound")
        const { records } = yield* drainExport(organization.id)
        expect(records.map((record) => [record.resource, record.operation, record.record_id])).toEqual([
          ["api_keys", "create", key.id],
          ["api_keys", "delete", key.id]
        ])
        expect(JSON.stringify(records)).not.toContain(token)
      }))

    it.effect("a key stops working at its expiry time", () =>
      Effect.gen(function*() {
        const auth = yield* Auth.Auth
        const organization = yield* freshOrganization
        const expiresAt = DateTime.add(yield* DateTime.now, { hours: 1 })
        const { token } = yield* (yield* ApiKeys.ApiKeys).create(system, organization.id, {
          name: "temporary",
          access: "admin",
          scopes: ["*"],
          expiresAt
        })
        yield* TestClock.adjust("59 minutes")
        expect((yield* auth.authenticate(bearer(token)))._tag).toBe("ApiKey")
        yield* TestClock.adjust("1 minute")
        expect((yield* Effect.flip(auth.authenticate(bearer(token))))._tag).toBe("Unauthorized")
      }))

    it.effect("missing, malformed, unknown and garbled credentials are all the same Unauthorized", () =>
      Effect.gen(function*() {
        const auth = yield* Auth.Auth
        const organization = yield* freshOrganization
        const { token } = yield* (yield* ApiKeys.ApiKeys).create(system, organization.id, {
          name: "real",
          access: "admin",
          scopes: ["*"]
        })
        const brokenChecksum = token.slice(0, -1) + (token.endsWith("A") ? "B" : "A")
        const headers = [
          undefined,
          "",
          "Bearer",
          `Basic ${token}`,
          bearer(`${token}x`),
          bearer(brokenChecksum),
          bearer(ApiToken.generate("api_key")),
          bearer(ApiToken.generate("session")),
          "Bearer ' OR 1=1 --"
        ]
        const errors = yield* Effect.forEach(headers, (header) => Effect.flip(auth.authenticate(header)))
        expect(new Set(errors.map((error) => `${error._tag}: ${error.message}`))).toEqual(
          new Set(["Unauthorized: missing or invalid credentials"])
        )
      }))
    it.effect("listing shows every key without its token; a use is recorded at most once a minute; revoke by name", () =>
      Effect.gen(function*() {
        const apiKeys = yield* ApiKeys.ApiKeys
        const auth = yield* Auth.Auth
        const organization = yield* freshOrganization
        const first = yield* apiKeys.create(system, organization.id, { name: "one", access: "admin", scopes: ["*"] })
        yield* TestClock.adjust("1 second")
        const second = yield* apiKeys.create(system, organization.id, { name: "two", access: "read_only", scopes: ["insights:read"] })
        const listed = yield* apiKeys.list(organization.id)
        expect(listed.map((key) => [key.name, key.last_used_at])).toEqual([["one", null], ["two", null]])

        yield* auth.authenticate(bearer(first.token))
        const usedAt = (yield* apiKeys.list(organization.id))[0]!.last_used_at
        expect(usedAt).toEqual(yield* DateTime.now)
        yield* TestClock.adjust("30 seconds")
        yield* auth.authenticate(bearer(first.token))
        expect((yield* apiKeys.list(organization.id))[0]!.last_used_at).toEqual(usedAt)
        yield* TestClock.adjust("31 seconds")
        yield* auth.authenticate(bearer(first.token))
        expect((yield* apiKeys.list(organization.id))[0]!.last_used_at).toEqual(yield* DateTime.now)

        const revoked = yield* apiKeys.revokeByName(system, organization.id, "two")
        yield* TestClock.adjust("1 second")
        expect(revoked.id).toBe(second.key.id)
        expect((yield* Effect.flip(auth.authenticate(bearer(second.token))))._tag).toBe("Unauthorized")
        expect((yield* Effect.flip(apiKeys.revokeByName(system, organization.id, "two")))._tag).toBe("NotFound")
        yield* apiKeys.create(system, organization.id, { name: "one", access: "admin", scopes: ["*"] })
        const ambiguous = yield* Effect.flip(apiKeys.revokeByName(system, organization.id, "one"))
        expect(ambiguous._tag).toBe("ValidationFailed")
        expect((yield* apiKeys.list(organization.id)).map((key) => key.revoked_at === null)).toEqual([true, false, true])
      }))

    it.effect("a key created on behalf of a key carries no more than it: refused and audited as a failure", () =>
      Effect.gen(function*() {
        const apiKeys = yield* ApiKeys.ApiKeys
        const auth = yield* Auth.Auth
        const organization = yield* freshOrganization
        const { token } = yield* apiKeys.create(system, organization.id, {
          name: "narrow",
          access: "read_write",
          scopes: ["insights:write"]
        })
        yield* TestClock.adjust("1 second")
        const grantor = yield* auth.authenticate(bearer(token))
        const within = yield* apiKeys.create(system, organization.id, {
          name: "reader",
          access: "read_only",
          scopes: ["insights:read"]
        }, { grantor })
        expect(within.key.scopes).toEqual(["insights:read"])
        for (const input of [
          { name: "wider access", access: "admin" as const, scopes: ["insights:write"] },
          { name: "other area", access: "read_only" as const, scopes: ["teams:read"] },
          { name: "everything", access: "read_only" as const, scopes: ["*"] }
        ]) {
          const refused = yield* Effect.flip(apiKeys.create(system, organization.id, input, { grantor, requestId: input.name }))
          expect(refused._tag).toBe("Forbidden")
        }
        const { records } = yield* drainExport(organization.id, { filters: { status_in: ["failure"] } })
        expect(records.map((record) => [record.resource, record.operation, record.request_id])).toEqual([
          ["api_keys", "create", "wider access"],
          ["api_keys", "create", "other area"],
          ["api_keys", "create", "everything"]
        ])
        expect((yield* apiKeys.list(organization.id)).map((key) => key.name)).toEqual(["narrow", "reader"])
      }))
  })

  describe("sessions", () => {
    it.effect("a session authenticates as its user with their roles; login and logout are audited once", () =>
      Effect.gen(function*() {
        const sessions = yield* Sessions.Sessions
        const auth = yield* Auth.Auth
        const organization = yield* freshOrganization
        const user = yield* (yield* Users.Users).add(system, organization.id, { email: "sam@example.com", role: "editor" })
        const { session, token } = yield* sessions.create(organization.id, "SAM@example.com", { requestId: "req-1" })
        expect(yield* auth.authenticate(bearer(token))).toEqual({
          _tag: "User",
          organizationId: organization.id,
          userId: user.id,
          email: user.email,
          sessionId: session.id,
          roles: ["editor"]
        })

        yield* sessions.end(organization.id, session.id, user.email, "req-2")
        yield* sessions.end(organization.id, session.id, user.email, "req-3")
        expect((yield* Effect.flip(auth.authenticate(bearer(token))))._tag).toBe("Unauthorized")
        const { records } = yield* drainExport(organization.id, { filters: { event_type_in: ["session"] } })
        expect(records.map((record) => [record.operation, record.changed_by, record.changed_by_type, record.request_id]))
          .toEqual([["login", user.email, "user", "req-1"], ["logout", user.email, "user", "req-2"]])
      }))

    it.effect("an operator ends every live session of a member; each is audited as a logout", () =>
      Effect.gen(function*() {
        const sessions = yield* Sessions.Sessions
        const auth = yield* Auth.Auth
        const organization = yield* freshOrganization
        yield* (yield* Users.Users).add(system, organization.id, { email: "kim@example.com", role: "viewer" })
        yield* (yield* Users.Users).add(system, organization.id, { email: "lee@example.com", role: "viewer" })
        const first = yield* sessions.create(organization.id, "kim@example.com")
        const second = yield* sessions.create(organization.id, "kim@example.com")
        const other = yield* sessions.create(organization.id, "lee@example.com")
        expect(yield* sessions.revokeForUser(system, organization.id, "KIM@example.com")).toBe(2)
        for (const { token } of [first, second]) {
          expect((yield* Effect.flip(auth.authenticate(bearer(token))))._tag).toBe("Unauthorized")
        }
        expect((yield* auth.authenticate(bearer(other.token)))._tag).toBe("User")
        expect(yield* sessions.revokeForUser(system, organization.id, "kim@example.com")).toBe(0)
        const { records } = yield* drainExport(organization.id, { filters: { event_type_in: ["session"], operation_in: ["logout"] } })
        expect(records.map((record) => [record.record_id, record.changed_by]).sort()).toEqual(
          [[first.session.id, "system"], [second.session.id, "system"]].sort()
        )
        expect((yield* Effect.flip(sessions.revokeForUser(system, organization.id, "nobody@example.com")))._tag).toBe("NotFound")
      }))

    it.effect("a session expires after its time to live, and only members can have one", () =>
      Effect.gen(function*() {
        const sessions = yield* Sessions.Sessions
        const auth = yield* Auth.Auth
        const organization = yield* freshOrganization
        yield* (yield* Users.Users).add(system, organization.id, { email: "short@example.com", role: "viewer" })
        const { token } = yield* sessions.create(organization.id, "short@example.com", { ttl: "1 hour" })
        yield* TestClock.adjust("59 minutes")
        expect((yield* auth.authenticate(bearer(token)))._tag).toBe("User")
        yield* TestClock.adjust("1 minute")
        expect((yield* Effect.flip(auth.authenticate(bearer(token))))._tag).toBe("Unauthorized")
        const stranger = yield* Effect.flip(sessions.create(organization.id, "stranger@example.com"))
        expect(stranger._tag).toBe("NotFound")
      }))
  })

  describe("role grants", () => {
    it.effect("the same grant twice is refused; other roles or scopes are other grants; deletion returns them", () =>
      Effect.gen(function*() {
        const repo = yield* IdentityRepo.RoleAssignmentsRepo
        const organization = yield* freshOrganization
        const grant = (role: RoleAssignment.RoleAssignment["role"], scopeType: RoleAssignment.RoleAssignment["scope_type"], scopeId: string | null) =>
          Effect.map(Ids.newId<"RoleAssignmentId">(), (id) =>
            new RoleAssignment.RoleAssignment({
              id,
              organization_id: organization.id,
              subject_type: "sso_group",
              subject_id: "data-team",
              role,
              scope_type: scopeType,
              scope_id: scopeId,
              created_at: DateTime.unsafeMake(0),
              updated_at: DateTime.unsafeMake(0)
            }))
        const granted = [
          yield* grant("viewer", "organization", null),
          yield* grant("viewer", "dw_account", "account-1"),
          yield* grant("admin", "organization", null)
        ]
        yield* Effect.forEach(granted, repo.insert)
        const again = yield* Effect.flip(Effect.flatMap(grant("viewer", "organization", null), repo.insert))
        expect(again._tag).toBe("AlreadyExists")

        const listed = yield* repo.listForSubject(organization.id, "sso_group", "data-team")
        expect(ids(listed).sort()).toEqual(ids(granted).sort())
        expect(listed.find((assignment) => assignment.id === granted[1]!.id)).toEqual(granted[1])
        expect(yield* repo.listForSubject(organization.id, "team", "data-team")).toEqual([])
        const removed = yield* repo.deleteForSubject(organization.id, "sso_group", "data-team")
        expect(ids(removed).sort()).toEqual(ids(granted).sort())
        expect(yield* repo.listForSubject(organization.id, "sso_group", "data-team")).toEqual([])
      }))
  })
}
