/** Contract: organization events: invitations, and removing a member from everything they held. */
import { describe, expect, type Vitest } from "@effect/vitest"
import { Effect } from "effect"
import { randomUUID } from "node:crypto"
import { AddTeamMember, type InvitationId, Invitations, TeamMembers, Teams, Users } from "@costline/core"
import { addMember, createTeam, failureTag, system } from "./AccessFixtures.js"
import { type ContractServices, drainExport, freshOrganization, keyActor } from "./Fixtures.js"

export const organizationEventsContract = (it: Vitest.MethodsNonLive<ContractServices>) => {
  describe("invitations", () => {
    it.effect("an invitation is pending until revoked; both are audited as invitation events", () =>
      Effect.gen(function*() {
        const invitations = yield* Invitations
        const organization = yield* freshOrganization
        // An admin key may invite with any role (see GrantRuleContract for who may not).
        const boss = keyActor(organization.id, "admin", ["*"])
        const invited = yield* invitations.create(boss, organization.id, { email: " New@Example.com", role: "editor" })
        expect(invited).toMatchObject({ email: "new@example.com", role: "editor", invited_by: boss.changedBy, revoked_at: null })
        expect(yield* invitations.listPending(organization.id)).toEqual([invited])

        const revoked = yield* invitations.revoke(system, organization.id, invited.id)
        expect(revoked.revoked_at).not.toBeNull()
        expect(yield* invitations.listPending(organization.id)).toEqual([])
        expect(yield* failureTag(invitations.revoke(system, organization.id, invited.id))).toBe("NotFound")
        const { records } = yield* drainExport(organization.id)
        expect(records.map((record) => [record.event_type, record.table_name, record.operation, record.record_id])).toEqual([
          ["invitation", "invitations", "create", invited.id],
          ["invitation", "invitations", "revoke", invited.id]
        ])
        expect(records[0]!.new_values).toEqual({ email: "new@example.com", role: "editor" })
      }))

    it.effect("one pending invitation per email; members, bad emails and other tenants' invitations are refused", () =>
      Effect.gen(function*() {
        const invitations = yield* Invitations
        const [organization, other] = [yield* freshOrganization, yield* freshOrganization]
        const first = yield* invitations.create(system, organization.id, { email: "dup@example.com", role: "viewer" })
        expect(yield* failureTag(invitations.create(system, organization.id, { email: "DUP@example.com", role: "admin" }))).toBe("AlreadyExists")
        yield* addMember(organization.id, "member@example.com")
        expect(yield* failureTag(invitations.create(system, organization.id, { email: "member@example.com", role: "viewer" }))).toBe("AlreadyExists")
        expect(yield* failureTag(invitations.create(system, organization.id, { email: "not an email", role: "viewer" }))).toBe("ValidationFailed")
        expect(yield* failureTag(invitations.revoke(system, other.id, first.id))).toBe("NotFound")
        expect(yield* failureTag(invitations.revoke(system, organization.id, randomUUID() as InvitationId))).toBe("NotFound")

        yield* invitations.revoke(system, organization.id, first.id)
        const again = yield* invitations.create(system, organization.id, { email: "dup@example.com", role: "admin" })
        expect(yield* invitations.listPending(organization.id)).toEqual([again])
        expect(yield* invitations.listPending(other.id)).toEqual([])
      }))
  })

  describe("removing a member", () => {
    it.effect("takes them out of every team, each membership's deletion audited before the users event", () =>
      Effect.gen(function*() {
        const organization = yield* freshOrganization
        const members = yield* TeamMembers
        const teams = yield* Teams
        const user = yield* addMember(organization.id, "leaving@example.com", "editor")
        yield* addMember(organization.id, "staying@example.com")
        const team = yield* createTeam(organization.id, "Team")
        const membership = yield* members.add(system, organization.id, team.id, new AddTeamMember({ identifier: user.email }))
        yield* members.add(system, organization.id, team.id, new AddTeamMember({ identifier: "staying@example.com" }))

        yield* (yield* Users).remove(system, organization.id, user.email)
        const details = yield* teams.details(organization.id, team.id, {
          members: { pageToken: undefined, maxResults: 10 },
          roles: { pageToken: undefined, maxResults: 10 },
          fields: { members: { size: "members" }, roles: { size: "roles" } }
        })
        expect(details.members.items.map((m) => m.identifier)).toEqual(["staying@example.com"])
        const { records } = yield* drainExport(organization.id, { filters: { operation_in: ["delete", "remove"] } })
        expect(records.map((record) => [record.resource ?? record.event_type, record.table_name, record.record_id])).toEqual([
          ["user_roles", "role_assignments", expect.any(String)],
          ["teams", "team_members", membership.id],
          ["users", "users", user.id]
        ])
        expect(records[1]!.old_values).toEqual({ team_id: team.id, type: "user", identifier: user.email, role: "viewer" })
      }))
  })
}
