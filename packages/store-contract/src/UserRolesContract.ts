/** Contract: a member's merged roles (direct, default, team-inherited), direct grants, and Auth. */
import { describe, expect, type Vitest } from "@effect/vitest"
import { DateTime, Effect, TestClock } from "effect"
import { randomUUID } from "node:crypto"
import { Auth, DwAccount, DwAccountsRepo, Precondition, Sessions, Team, TeamMembers, TeamRoles, Teams, UserRoles } from "@costline/core"
import type { Ids } from "@costline/core"
import { addMember, createTeam, drainPages, failureTag, grant, system } from "./AccessFixtures.js"
import { type ContractServices, drainExport, freshOrganization } from "./Fixtures.js"

const fields = { size: "query.max_results" }
const offsetFields = { size: "query.limit", offset: "query.offset" }
const firstPage = { pageToken: undefined, maxResults: 50 }

/**
 * One member with a role from every source, a millisecond apart: direct admin (org), the
 * all-users team's default viewer role, an all-users team grant (bi_site), and a grant of a team
 * they belong to (editor, org). A team they do not belong to grants another role.
 */
const memberWithEverySource = Effect.gen(function*() {
  const organization = yield* freshOrganization
  const members = yield* TeamMembers.TeamMembers
  const teamRoles = yield* TeamRoles.TeamRoles
  const user = yield* addMember(organization.id, "pat@example.com", "admin")
  yield* TestClock.adjust("1 millis")
  const everyone = yield* createTeam(organization.id, "Everyone", { allUsers: true, defaultRole: "viewer" })
  yield* TestClock.adjust("1 millis")
  const siteGrant = yield* teamRoles.grant(system, organization.id, everyone.id, grant("viewer", "bi_site", "tableau-1"))
  const team = yield* createTeam(organization.id, "Data")
  yield* members.add(system, organization.id, team.id, new Team.AddTeamMember({ identifier: "pat@example.com" }))
  yield* TestClock.adjust("1 millis")
  const teamGrant = yield* teamRoles.grant(system, organization.id, team.id, grant("editor", "organization"))
  const elsewhere = yield* createTeam(organization.id, "Elsewhere")
  yield* teamRoles.grant(system, organization.id, elsewhere.id, grant("monitor_editor", "organization"))
  return { organization, user, everyone, team, siteGrant, teamGrant }
})

const dwAccount = (organizationId: Ids.OrganizationId, name: string) =>
  Effect.gen(function*() {
    const now = yield* DateTime.now
    const account = new DwAccount.DwAccount({
      id: randomUUID() as DwAccount.DwAccountId,
      organization_id: organizationId,
      name,
      authentication_method: "key_pair",
      username: "svc",
      public_key_fingerprint: null,
      credentials_updated_at: null,
      created_at: now,
      updated_at: now,
      etag: "\"e\""
    })
    yield* (yield* DwAccountsRepo.DwAccountsRepo).insert(account)
    return account
  })

export const userRolesContract = (it: Vitest.MethodsNonLive<ContractServices>) => {
  describe("user roles", () => {
    it.effect("lists direct, default and team-inherited roles by creation, each saying where it comes from", () =>
      Effect.gen(function*() {
        const { everyone, organization, siteGrant, teamGrant } = yield* memberWithEverySource
        const page = yield* (yield* UserRoles.UserRoles).list(organization.id, "PAT@example.com", {}, firstPage, fields)
        expect(page.page_token).toBeNull()
        expect(page.items.map((role) => [role.role, role.scope.type, role.is_default, role.granted_from_team_name])).toEqual([
          ["admin", "organization", false, null],
          ["viewer", "organization", true, null],
          ["viewer", "bi_site", false, "Everyone"],
          ["editor", "organization", false, "Data"]
        ])
        expect(page.items.slice(1).map((role) => role.id)).toEqual([everyone.id, siteGrant.id, teamGrant.id])
        expect(page.items[2]!.scope).toEqual({ type: "bi_site", id: "tableau-1", name: "tableau-1" })
      }))

    it.effect("filters by role and scope type, and pages as keyset or offset pages", () =>
      Effect.gen(function*() {
        const userRoles = yield* UserRoles.UserRoles
        const { organization } = yield* memberWithEverySource
        const list = (filters: Parameters<typeof userRoles.list>[2]) =>
          Effect.map(userRoles.list(organization.id, "pat@example.com", filters, firstPage, fields), (page) =>
            page.items.map((role) => `${role.role}@${role.scope.type}`))
        expect(yield* list({ roles: ["viewer"] })).toEqual(["viewer@organization", "viewer@bi_site"])
        expect(yield* list({ scopeTypes: ["bi_site"] })).toEqual(["viewer@bi_site"])
        expect(yield* list({ roles: ["viewer", "editor"], scopeTypes: ["organization"] })).toEqual(["viewer@organization", "editor@organization"])

        const pages = yield* drainPages(3, (request) => userRoles.list(organization.id, "pat@example.com", {}, request, fields))
        expect(pages.sizes).toEqual([3, 1])
        const offset = yield* userRoles.listOffset(organization.id, "pat@example.com", { roles: ["viewer", "editor"] }, { offset: 1, limit: 1 }, offsetFields)
        expect(offset.items.map((role) => role.role)).toEqual(["viewer"])
        expect(offset.remaining_count).toBe(1)
        expect(yield* failureTag(userRoles.list(organization.id, "nobody@example.com", {}, firstPage, fields))).toBe("NotFound")
      }))

    it.effect("grants a direct role at a checked scope, named; the same grant twice is AlreadyExists", () =>
      Effect.gen(function*() {
        const userRoles = yield* UserRoles.UserRoles
        const [organization, other] = [yield* freshOrganization, yield* freshOrganization]
        const user = yield* addMember(organization.id, "lee@example.com", "viewer")
        const account = yield* dwAccount(organization.id, "Production")
        const foreign = yield* dwAccount(other.id, "Theirs")

        const granted = yield* userRoles.grant(system, organization.id, "lee@example.com", grant("editor", "dw_account", account.id))
        expect(granted).toMatchObject({
          role: "editor",
          scope: { type: "dw_account", id: account.id, name: "Production" },
          is_default: false,
          granted_from_team_name: null
        })
        expect(yield* failureTag(userRoles.grant(system, organization.id, "lee@example.com", grant("editor", "dw_account", account.id))))
          .toBe("AlreadyExists")
        const theirs = yield* Effect.flip(userRoles.grant(system, organization.id, "lee@example.com", grant("editor", "dw_account", foreign.id)))
        expect(theirs).toMatchObject({ _tag: "ValidationFailed", details: [{ field: "scope.id", message: `no dw_account '${foreign.id}' in this organization` }] })
        expect(yield* failureTag(userRoles.grant(system, organization.id, "ghost@example.com", grant("viewer", "organization")))).toBe("NotFound")

        const { records } = yield* drainExport(organization.id, { filters: { resource_in: ["user_roles"] } })
        expect(records.at(-1)).toMatchObject({
          table_name: "role_assignments",
          operation: "create",
          record_id: granted.id,
          new_values: { email: user.email, role: "editor", scope_type: "dw_account", scope_id: account.id }
        })
      }))

    it.effect("deletes only direct roles: a default or inherited one is a Conflict, an unknown one NotFound", () =>
      Effect.gen(function*() {
        const userRoles = yield* UserRoles.UserRoles
        const { everyone, organization, teamGrant, user } = yield* memberWithEverySource
        const other = yield* addMember(organization.id, "other@example.com", "editor")
        const [direct] = (yield* userRoles.list(organization.id, user.email, { roles: ["admin"] }, firstPage, fields)).items
        const [othersDirect] = (yield* userRoles.list(organization.id, other.email, { roles: ["editor"] }, firstPage, fields)).items

        expect(yield* failureTag(userRoles.revoke(system, organization.id, user.email, everyone.id))).toBe("Conflict")
        expect(yield* failureTag(userRoles.revoke(system, organization.id, user.email, teamGrant.id))).toBe("Conflict")
        expect(yield* failureTag(userRoles.revoke(system, organization.id, user.email, othersDirect!.id))).toBe("NotFound")
        expect(yield* failureTag(userRoles.revoke(system, organization.id, user.email, "nope"))).toBe("NotFound")
        yield* userRoles.revoke(system, organization.id, user.email, direct!.id)
        expect(yield* failureTag(userRoles.revoke(system, organization.id, user.email, direct!.id))).toBe("NotFound")

        const remaining = yield* userRoles.list(organization.id, user.email, {}, firstPage, fields)
        expect(remaining.items.map((role) => role.role)).toEqual(["viewer", "viewer", "editor"])
        const { records } = yield* drainExport(organization.id, { filters: { operation_in: ["delete"] } })
        expect(records).toHaveLength(1)
        expect(records[0]).toMatchObject({ resource: "user_roles", table_name: "role_assignments", record_id: direct!.id })
      }))
  })

  describe("authentication sees merged roles", () => {
    it.effect("a session's roles are every organization-wide role, whatever its source; narrower ones do not count", () =>
      Effect.gen(function*() {
        const auth = yield* Auth.Auth
        const teams = yield* Teams.Teams
        const userRoles = yield* UserRoles.UserRoles
        const { everyone, organization, user } = yield* memberWithEverySource
        const account = yield* dwAccount(organization.id, "Sandbox")
        yield* userRoles.grant(system, organization.id, user.email, grant("team_creator", "dw_account", account.id))
        const { token } = yield* (yield* Sessions.Sessions).create(organization.id, user.email)
        const roles = () =>
          Effect.map(auth.authenticate(`Bearer ${token}`), (principal) => principal._tag === "User" ? [...principal.roles].sort() : [])
        expect(yield* roles()).toEqual(["admin", "editor", "viewer"])

        yield* teams.update(system, organization.id, everyone.id, { default_member_role: "admin" }, Precondition.none)
        const direct = (yield* userRoles.list(organization.id, user.email, { roles: ["admin"] }, firstPage, fields)).items
          .find((role) => !role.is_default)
        yield* userRoles.revoke(system, organization.id, user.email, direct!.id)
        expect(yield* roles()).toEqual(["admin", "editor"])
      }))
  })
}
