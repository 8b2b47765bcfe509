/** Contract: team updates, members, team roles and the details read (counts, pages). */
import { describe, expect, type Vitest } from "@effect/vitest"
import { Effect, TestClock } from "effect"
import { randomUUID } from "node:crypto"
import { Precondition, SsoGroups, Team, TeamMembers, TeamRoles, Teams } from "@costline/core"
import type { Ids } from "@costline/core"
import {
  addMember,
  createSsoGroup,
  createTeam,
  drainPages,
  failureTag,
  grant,
  system
} from "./AccessFixtures.js"
import { type ContractServices, drainExport, freshOrganization, ifMatch } from "./Fixtures.js"

const condition = ifMatch

const fields = { members: { size: "query.members_max_results" }, roles: { size: "query.roles_max_results" } }
const offsetFields = {
  members: { size: "query.members_limit", offset: "query.members_offset" },
  roles: { size: "query.roles_limit", offset: "query.roles_offset" }
}

const member = (identifier: string, role?: "admin" | "editor" | "viewer") =>
  new Team.AddTeamMember(role === undefined ? { identifier } : { identifier, role })

export const teamDetailsContract = (it: Vitest.MethodsNonLive<ContractServices>) => {
  describe("team updates", () => {
    it.effect("a merge patch changes only what it names, bumps the ETag and audits old and new values", () =>
      Effect.gen(function*() {
        const teams = yield* Teams.Teams
        const organization = yield* freshOrganization
        const created = yield* createTeam(organization.id, "Data", { defaultRole: "viewer" })
        yield* TestClock.adjust("1 minute")
        const renamed = yield* teams.update(system, organization.id, created.id, { name: " Data platform " }, Precondition.none)
        expect(renamed).toMatchObject({ name: "Data platform", default_member_role: "viewer" })
        expect(Teams.teamEtag(renamed)).not.toBe(Teams.teamEtag(created))
        expect(renamed.updated_at).not.toEqual(created.updated_at)
        expect(yield* teams.get(organization.id, created.id)).toEqual(renamed)

        const { records } = yield* drainExport(organization.id, { filters: { operation_in: ["update"] } })
        expect(records).toHaveLength(1)
        expect(records[0]).toMatchObject({
          resource: "teams",
          table_name: "teams",
          record_id: created.id,
          old_values: { name: "Data", default_member_role: "viewer" },
          new_values: { name: "Data platform", default_member_role: "viewer" }
        })
      }))

    it.effect("a patch that changes nothing writes nothing and keeps the ETag", () =>
      Effect.gen(function*() {
        const teams = yield* Teams.Teams
        const organization = yield* freshOrganization
        const created = yield* createTeam(organization.id, "Ops", { defaultRole: "editor" })
        for (const patch of [{}, { name: "Ops" }, { default_member_role: "editor" as const }]) {
          expect(yield* teams.update(system, organization.id, created.id, patch, Precondition.none)).toEqual(created)
        }
        expect((yield* drainExport(organization.id, { filters: { operation_in: ["update"] } })).records).toEqual([])
      }))

    it.effect("If-Match: the current ETag or * applies the patch, a stale one is PreconditionFailed and changes nothing", () =>
      Effect.gen(function*() {
        const teams = yield* Teams.Teams
        const organization = yield* freshOrganization
        const created = yield* createTeam(organization.id, "Finance")
        const stale = Teams.teamEtag(created)
        const first = yield* teams.update(system, organization.id, created.id, { name: "Finance 2" }, condition(stale))
        const refused = yield* Effect.flip(
          teams.update(system, organization.id, created.id, { name: "Finance 3" }, condition(stale))
        )
        expect(refused._tag).toBe("PreconditionFailed")
        const weak = yield* failureTag(
          teams.update(system, organization.id, created.id, { name: "Weak" }, condition(`W/${Teams.teamEtag(first)}`))
        )
        expect(weak).toBe("PreconditionFailed")
        const listed = yield* teams.update(
          system,
          organization.id,
          created.id,
          { default_member_role: "admin" },
          condition(`"other", ${Teams.teamEtag(first)}`)
        )
        expect(listed.default_member_role).toBe("admin")
        const any = yield* teams.update(system, organization.id, created.id, { name: "Any" }, condition("*"))
        expect(any.name).toBe("Any")
      }))

    it.effect("another organization's team, or an unknown one, is NotFound", () =>
      Effect.gen(function*() {
        const teams = yield* Teams.Teams
        const [organization, other] = [yield* freshOrganization, yield* freshOrganization]
        const created = yield* createTeam(organization.id, "Private")
        expect(yield* failureTag(teams.update(system, other.id, created.id, { name: "Mine" }, Precondition.none))).toBe("NotFound")
        expect(yield* failureTag(teams.update(system, organization.id, randomUUID() as Ids.TeamId, { name: "x" }, Precondition.none)))
          .toBe("NotFound")
        expect((yield* teams.get(organization.id, created.id)).name).toBe("Private")
      }))
  })

  describe("team members", () => {
    it.effect("adds users by email in any case and SSO groups by name, with the team's default role unless given", () =>
      Effect.gen(function*() {
        const members = yield* TeamMembers.TeamMembers
        const organization = yield* freshOrganization
        const team = yield* createTeam(organization.id, "Analytics", { defaultRole: "editor" })
        const user = yield* addMember(organization.id, "ana@example.com")
        const group = yield* createSsoGroup(organization.id, "Okta-Analysts", [grant("viewer", "organization")])

        const asUser = yield* members.add(system, organization.id, team.id, member(" ANA@example.com "))
        expect(asUser).toMatchObject({ type: "user", subject_id: user.id, identifier: "ana@example.com", role: "editor" })
        const asGroup = yield* members.add(system, organization.id, team.id, member("Okta-Analysts", "admin"))
        expect(asGroup).toMatchObject({ type: "sso_group", subject_id: group.group.id, identifier: "Okta-Analysts", role: "admin" })

        const { records } = yield* drainExport(organization.id, { filters: { table_name_in: ["team_members"] } })
        expect(records.map((record) => [record.resource, record.operation, record.record_id, record.new_values])).toEqual([
          ["teams", "create", asUser.id, { team_id: team.id, type: "user", identifier: "ana@example.com", role: "editor" }],
          ["teams", "create", asGroup.id, { team_id: team.id, type: "sso_group", identifier: "Okta-Analysts", role: "admin" }]
        ])
      }))

    it.effect("refuses unknown users and groups, duplicates, and the all-users team; none of it is audited", () =>
      Effect.gen(function*() {
        const members = yield* TeamMembers.TeamMembers
        const [organization, other] = [yield* freshOrganization, yield* freshOrganization]
        const team = yield* createTeam(organization.id, "Core")
        const everyone = yield* createTeam(organization.id, "Everyone", { allUsers: true })
        yield* addMember(organization.id, "kim@example.com")
        yield* addMember(other.id, "stranger@example.com")
        yield* createSsoGroup(other.id, "elsewhere", [grant("viewer", "organization")])
        yield* members.add(system, organization.id, team.id, member("kim@example.com"))

        const unknownUser = yield* Effect.flip(members.add(system, organization.id, team.id, member("stranger@example.com")))
        expect(unknownUser).toMatchObject({ _tag: "ValidationFailed", details: [{ field: "identifier", issue: "not_found" }] })
        const unknownGroup = yield* Effect.flip(members.add(system, organization.id, team.id, member("elsewhere")))
        expect(unknownGroup).toMatchObject({ _tag: "ValidationFailed", details: [{ field: "identifier" }] })
        expect(yield* failureTag(members.add(system, organization.id, team.id, member("KIM@example.com")))).toBe("AlreadyExists")
        expect(yield* failureTag(members.add(system, organization.id, everyone.id, member("kim@example.com")))).toBe("Conflict")
        expect(yield* failureTag(members.add(system, other.id, team.id, member("stranger@example.com")))).toBe("NotFound")

        const { records } = yield* drainExport(organization.id, { filters: { table_name_in: ["team_members"] } })
        expect(records).toHaveLength(1)
      }))
  })

  describe("team roles", () => {
    it.effect("grants roles at checked scopes, refuses duplicates and unknown scopes, and revokes only its own grants", () =>
      Effect.gen(function*() {
        const roles = yield* TeamRoles.TeamRoles
        const organization = yield* freshOrganization
        const team = yield* createTeam(organization.id, "Platform")
        const otherTeam = yield* createTeam(organization.id, "Other")

        const orgWide = yield* roles.grant(system, organization.id, team.id, grant("editor", "organization"))
        expect(orgWide.scope).toEqual({ type: "organization", id: organization.id, name: "Contract test" })
        const external = yield* roles.grant(system, organization.id, team.id, grant("viewer", "dw_organization", "ACME_ORG"))
        expect(external.scope).toEqual({ type: "dw_organization", id: "ACME_ORG", name: "ACME_ORG" })

        expect(yield* failureTag(roles.grant(system, organization.id, team.id, grant("editor", "organization", organization.id))))
          .toBe("AlreadyExists")
        const missing = yield* Effect.flip(roles.grant(system, organization.id, team.id, grant("viewer", "dw_account", randomUUID())))
        expect(missing).toMatchObject({ _tag: "ValidationFailed", details: [{ field: "scope.id" }] })
        const otherTenant = yield* Effect.flip(roles.grant(system, organization.id, team.id, grant("viewer", "organization", "org-x")))
        expect(otherTenant).toMatchObject({ _tag: "ValidationFailed", details: [{ field: "scope.id" }] })
        const noId = yield* Effect.flip(roles.grant(system, organization.id, team.id, grant("viewer", "usage_group")))
        expect(noId).toMatchObject({ _tag: "ValidationFailed", details: [{ field: "scope.id" }] })

        expect(yield* failureTag(roles.revoke(system, organization.id, otherTeam.id, orgWide.id))).toBe("NotFound")
        expect(yield* failureTag(roles.revoke(system, organization.id, team.id, "not-a-uuid"))).toBe("NotFound")
        yield* roles.revoke(system, organization.id, team.id, orgWide.id)
        expect(yield* failureTag(roles.revoke(system, organization.id, team.id, orgWide.id))).toBe("NotFound")

        const { records } = yield* drainExport(organization.id, { filters: { table_name_in: ["team_roles"] } })
        expect(records.map((record) => [record.operation, record.record_id])).toEqual([
          ["create", orgWide.id],
          ["create", external.id],
          ["delete", orgWide.id]
        ])
        expect(records[2]!.old_values).toEqual({ team_id: team.id, role: "editor", scope_type: "organization", scope_id: organization.id })
      }))
  })

  describe("team details", () => {
    it.effect("counts members and roles and pages through both; a token resumes only the list that issued it", () =>
      Effect.gen(function*() {
        const teams = yield* Teams.Teams
        const members = yield* TeamMembers.TeamMembers
        const roles = yield* TeamRoles.TeamRoles
        const organization = yield* freshOrganization
        const team = yield* createTeam(organization.id, "Big")
        const other = yield* createTeam(organization.id, "Small")
        const added = []
        // A millisecond apart: lists are ordered by time, then id.
        for (const index of [0, 1, 2, 3, 4]) {
          yield* TestClock.adjust("1 millis")
          yield* addMember(organization.id, `m${index}@example.com`)
          added.push(yield* members.add(system, organization.id, team.id, member(`m${index}@example.com`)))
        }
        const granted = []
        for (const account of ["A", "B", "C"]) {
          yield* TestClock.adjust("1 millis")
          granted.push(yield* roles.grant(system, organization.id, team.id, grant("viewer", "bi_site", account)))
        }

        const details = (membersToken: string | undefined, rolesToken: string | undefined, teamId = team.id) =>
          teams.details(organization.id, teamId, {
            members: { pageToken: membersToken, maxResults: 2 },
            roles: { pageToken: rolesToken, maxResults: 2 },
            fields
          })
        const first = yield* details(undefined, undefined)
        expect(first).toMatchObject({ team, member_count: 5, role_count: 3 })
        const memberPages = yield* drainPages(2, (request) =>
          Effect.map(
            teams.details(organization.id, team.id, { members: request, roles: { pageToken: undefined, maxResults: 1 }, fields }),
            (page) => page.members
          ))
        expect(memberPages.items.map((m) => m.id)).toEqual(added.map((m) => m.id))
        expect(memberPages.sizes).toEqual([2, 2, 1])
        const rolePages = yield* drainPages(2, (request) =>
          Effect.map(
            teams.details(organization.id, team.id, { members: { pageToken: undefined, maxResults: 1 }, roles: request, fields }),
            (page) => page.roles
          ))
        expect(rolePages.items.map((role) => role.id)).toEqual(granted.map((role) => role.id))

        const membersToken = first.members.page_token!
        expect(yield* failureTag(details(undefined, membersToken))).toBe("InvalidPageToken")
        expect(yield* failureTag(details(membersToken, undefined, other.id))).toBe("InvalidPageToken")
        const tooMany = yield* Effect.flip(
          teams.details(organization.id, team.id, { members: { pageToken: undefined, maxResults: 501 }, roles: { pageToken: undefined, maxResults: 1 }, fields })
        )
        expect(tooMany).toMatchObject({ _tag: "ValidationFailed", details: [{ field: "query.members_max_results" }] })
      }))

    it.effect("v1 offset pages: limit and offset per list, counts of the whole team", () =>
      Effect.gen(function*() {
        const teams = yield* Teams.Teams
        const members = yield* TeamMembers.TeamMembers
        const organization = yield* freshOrganization
        const team = yield* createTeam(organization.id, "Offsets")
        const added = []
        for (const index of [0, 1, 2]) {
          yield* TestClock.adjust("1 millis")
          yield* addMember(organization.id, `o${index}@example.com`)
          added.push(yield* members.add(system, organization.id, team.id, member(`o${index}@example.com`)))
        }
        const page = yield* teams.detailsOffset(organization.id, team.id, {
          members: { offset: 1, limit: 1 },
          roles: { offset: 0, limit: 10 },
          fields: offsetFields
        })
        expect(page).toMatchObject({ member_count: 3, role_count: 0, roles: [] })
        expect(page.members.map((m) => m.id)).toEqual([added[1]!.id])
        const beyond = yield* teams.detailsOffset(organization.id, team.id, {
          members: { offset: 10, limit: 1000 },
          roles: { offset: 0, limit: 1 },
          fields: offsetFields
        })
        expect(beyond.members).toEqual([])
        for (const [members, field] of [[{ offset: 0, limit: 1001 }, "query.members_limit"], [{ offset: -1, limit: 1 }, "query.members_offset"]] as const) {
          const invalid = yield* Effect.flip(teams.detailsOffset(organization.id, team.id, { members, roles: { offset: 0, limit: 1 }, fields: offsetFields }))
          expect(invalid).toMatchObject({ _tag: "ValidationFailed", details: [{ field }] })
        }
      }))

    it.effect("the all-users team lists every member with its default role, and follows a change of that role", () =>
      Effect.gen(function*() {
        const teams = yield* Teams.Teams
        const organization = yield* freshOrganization
        const first = yield* addMember(organization.id, "first@example.com", "admin")
        yield* TestClock.adjust("1 second")
        const second = yield* addMember(organization.id, "second@example.com", "editor")
        const everyone = yield* createTeam(organization.id, "Everyone", { allUsers: true, defaultRole: "viewer" })
        const read = () =>
          teams.details(organization.id, everyone.id, {
            members: { pageToken: undefined, maxResults: 10 },
            roles: { pageToken: undefined, maxResults: 10 },
            fields
          })
        const details = yield* read()
        expect(details.member_count).toBe(2)
        expect(details.members.items.map((m) => [m.id, m.type, m.identifier, m.role])).toEqual([
          [first.id, "user", "first@example.com", "viewer"],
          [second.id, "user", "second@example.com", "viewer"]
        ])
        yield* teams.update(system, organization.id, everyone.id, { default_member_role: "editor" }, Precondition.none)
        expect((yield* read()).members.items.map((m) => m.role)).toEqual(["editor", "editor"])
      }))

    it.effect("members show the current name of a renamed SSO group", () =>
      Effect.gen(function*() {
        const teams = yield* Teams.Teams
        const organization = yield* freshOrganization
        const team = yield* createTeam(organization.id, "Renames")
        const group = yield* createSsoGroup(organization.id, "old-name", [grant("viewer", "organization")])
        yield* (yield* TeamMembers.TeamMembers).add(system, organization.id, team.id, member("old-name"))
        yield* (yield* SsoGroups.SsoGroups).update(system, organization.id, group.group.id, { name: "new-name" }, Precondition.none)
        const details = yield* teams.details(organization.id, team.id, {
          members: { pageToken: undefined, maxResults: 10 },
          roles: { pageToken: undefined, maxResults: 10 },
          fields
        })
        expect(details.members.items.map((m) => m.identifier)).toEqual(["new-name"])
      }))
  })
}
