/** Contract: organization events: invitations, and removing a member from everything they held. */
import { describe, expect, type Vitest } from "@effect/vitest"
import { DateTime, Duration, Effect, TestClock } from "effect"
import { randomUUID } from "node:crypto"
import { Auth, Invitations, Team, TeamMembers, Teams, Users } from "@costline/core"
import type { Ids, Invitation } from "@costline/core"
import { addMember, createTeam, failureTag, system } from "./AccessFixtures.js"
import { type ContractServices, drainExport, freshOrganization, keyActor, memberActor } from "./Fixtures.js"

export const organizationEventsContract = (it: Vitest.MethodsNonLive<ContractServices>) => {
  describe("invitations", () => {
    it.effect("an invitation is pending until revoked; both are audited as invitation events", () =>
      Effect.gen(function*() {
        const invitations = yield* Invitations.Invitations
        const organization = yield* freshOrganization
        // An admin key may invite with any role (see GrantRuleContract for who may not).
        const boss = keyActor(organization.id, "admin", ["*"])
        const { invitation: invited } = yield* invitations.create(boss, organization.id, { email: " New@Example.com", role: "editor" })
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
        const invitations = yield* Invitations.Invitations
        const [organization, other] = [yield* freshOrganization, yield* freshOrganization]
        const { invitation: first } = yield* invitations.create(system, organization.id, { email: "dup@example.com", role: "viewer" })
        expect(yield* failureTag(invitations.create(system, organization.id, { email: "DUP@example.com", role: "admin" }))).toBe("AlreadyExists")
        yield* addMember(organization.id, "member@example.com")
        expect(yield* failureTag(invitations.create(system, organization.id, { email: "member@example.com", role: "viewer" }))).toBe("AlreadyExists")
        expect(yield* failureTag(invitations.create(system, organization.id, { email: "not an email", role: "viewer" }))).toBe("ValidationFailed")
        expect(yield* failureTag(invitations.revoke(system, other.id, first.id))).toBe("NotFound")
        expect(yield* failureTag(invitations.revoke(system, organization.id, randomUUID() as Invitation.InvitationId))).toBe("NotFound")

        yield* invitations.revoke(system, organization.id, first.id)
        const { invitation: again } = yield* invitations.create(system, organization.id, { email: "dup@example.com", role: "admin" })
        expect(yield* invitations.listPending(organization.id)).toEqual([again])
        expect(yield* invitations.listPending(other.id)).toEqual([])
      }))
  })

  describe("accepting an invitation", () => {
    it.effect("makes the invitee a member with the role and signs them in, once; audited as invitation revoke (accepted), role grant, login", () =>
      Effect.gen(function*() {
        const invitations = yield* Invitations.Invitations
        const organization = yield* freshOrganization
        const { invitation, token } = yield* invitations.create(system, organization.id, { email: "new@example.com", role: "editor" })
        expect(token).toMatch(/^cli_[0-9A-Za-z]{36}$/)
        expect(DateTime.distanceDuration(invitation.created_at, invitation.expires_at!)).toEqual(Duration.days(7))

        const accepted = yield* invitations.accept(organization.id, { token, email: " NEW@example.com" }, { requestId: "req-accept" })
        expect(accepted.user.email).toBe("new@example.com")
        expect(accepted.invitation.accepted_at).not.toBeNull()
        const principal = yield* (yield* Auth.Auth).authenticate(`Bearer ${accepted.token}`)
        expect(principal).toMatchObject({ _tag: "User", email: "new@example.com", roles: ["editor"] })
        // Never a bearer credential itself.
        expect(yield* failureTag((yield* Auth.Auth).authenticate(`Bearer ${token}`))).toBe("Unauthorized")

        expect(yield* Effect.flip(invitations.accept(organization.id, { token, email: "new@example.com" }))).toEqual(Invitations.invitationNotAcceptable)
        expect(yield* invitations.listPending(organization.id)).toEqual([])
        expect(yield* failureTag(invitations.revoke(system, organization.id, invitation.id))).toBe("NotFound")
        const { records } = yield* drainExport(organization.id)
        expect(records.map((record) => [record.event_type ?? record.resource, record.operation, record.changed_by, record.request_id])).toEqual([
          ["invitation", "create", "system", null],
          ["invitation", "revoke", "new@example.com", "req-accept"],
          ["user_roles", "create", "new@example.com", "req-accept"],
          ["session", "login", "new@example.com", "req-accept"]
        ])
        expect(records[1]).toMatchObject({
          record_id: invitation.id,
          old_values: { email: "new@example.com", role: "editor" },
          new_values: { email: "new@example.com", role: "editor", accepted: true }
        })
      }))

    it.effect("unknown, malformed, revoked, expired or another email's token: the same NotFound, nothing written", () =>
      Effect.gen(function*() {
        const invitations = yield* Invitations.Invitations
        const [organization, other] = [yield* freshOrganization, yield* freshOrganization]
        const { invitation, token } = yield* invitations.create(system, organization.id, { email: "a@example.com", role: "viewer" })
        const refusal = (orgId: Ids.OrganizationId, input: { token: string; email: string }) =>
          Effect.flip(invitations.accept(orgId, input))
        expect(yield* refusal(organization.id, { token, email: "b@example.com" })).toEqual(Invitations.invitationNotAcceptable)
        expect(yield* refusal(other.id, { token, email: "a@example.com" })).toEqual(Invitations.invitationNotAcceptable)
        expect(yield* refusal(organization.id, { token: "cli_nope", email: "a@example.com" })).toEqual(Invitations.invitationNotAcceptable)
        const stranger = (yield* invitations.create(system, other.id, { email: "a@example.com", role: "viewer" })).token
        expect(yield* refusal(organization.id, { token: stranger, email: "a@example.com" })).toEqual(Invitations.invitationNotAcceptable)

        yield* invitations.revoke(system, organization.id, invitation.id)
        expect(yield* refusal(organization.id, { token, email: "a@example.com" })).toEqual(Invitations.invitationNotAcceptable)

        const soon = yield* invitations.create(system, organization.id, {
          email: "a@example.com",
          role: "viewer",
          expiresAt: DateTime.addDuration(yield* DateTime.now, Duration.hours(1))
        })
        yield* TestClock.adjust(Duration.hours(1))
        expect(yield* refusal(organization.id, { token: soon.token, email: "a@example.com" })).toEqual(Invitations.invitationNotAcceptable)
        expect(yield* invitations.listPending(organization.id)).toEqual([])
        expect(yield* failureTag(invitations.create(system, organization.id, { email: "c@example.com", role: "viewer", expiresAt: yield* DateTime.now })))
          .toBe("ValidationFailed")
        // An expired invitation does not block its email: it is revoked (audited) when it is replaced.
        const renewed = yield* invitations.create(system, organization.id, { email: "a@example.com", role: "viewer" })
        expect(yield* invitations.listPending(organization.id)).toEqual([renewed.invitation])
        const { records } = yield* drainExport(organization.id)
        expect(records.map((record) => `${record.operation} ${record.record_id === soon.invitation.id ? "soon" : ""}`.trim())).toEqual([
          "create",
          "revoke",
          "create soon",
          "revoke soon",
          "create"
        ])
        expect(yield* failureTag((yield* Users.Users).findByEmail(organization.id, "a@example.com"))).toBe("NotFound")
      }))

    it.effect("re-checks the inviter: one who may no longer grant the role leaves the invitation open, refused and audited", () =>
      Effect.gen(function*() {
        const invitations = yield* Invitations.Invitations
        const organization = yield* freshOrganization
        const admin = yield* addMember(organization.id, "admin@example.com", "admin")
        const inviter = memberActor(organization.id, admin.email, ["admin"], admin.id)
        const { invitation, token } = yield* invitations.create(inviter, organization.id, { email: "new@example.com", role: "admin" })
        expect(invitation).toMatchObject({ inviter_type: "user", inviter_id: admin.id })
        yield* (yield* Users.Users).remove(system, organization.id, admin.email)

        const refused = yield* Effect.flip(invitations.accept(organization.id, { token, email: "new@example.com" }))
        expect(refused._tag).toBe("Forbidden")
        expect(yield* invitations.listPending(organization.id)).toEqual([invitation])
        expect(yield* failureTag((yield* Users.Users).findByEmail(organization.id, "new@example.com"))).toBe("NotFound")
        const { records } = yield* drainExport(organization.id, { filters: { event_type_in: ["invitation"] } })
        expect(records.map((record) => [record.operation, record.status, record.changed_by])).toEqual([
          ["create", "success", "admin@example.com"],
          ["revoke", "failure", "new@example.com"]
        ])
        // An operator's invitation is not bounded.
        const byOperator = yield* invitations.create(system, organization.id, { email: "other@example.com", role: "admin" })
        expect((yield* invitations.accept(organization.id, { token: byOperator.token, email: "other@example.com" })).user.email)
          .toBe("other@example.com")
      }))

    it.effect("an email that became a member meanwhile is a conflict; the invitation stays open", () =>
      Effect.gen(function*() {
        const invitations = yield* Invitations.Invitations
        const organization = yield* freshOrganization
        const { invitation, token } = yield* invitations.create(system, organization.id, { email: "new@example.com", role: "viewer" })
        yield* addMember(organization.id, "new@example.com")
        expect(yield* failureTag(invitations.accept(organization.id, { token, email: "new@example.com" }))).toBe("AlreadyExists")
        expect(yield* invitations.listPending(organization.id)).toEqual([invitation])
      }))
  })

  describe("removing a member", () => {
    it.effect("takes them out of every team, each membership's deletion audited before the users event", () =>
      Effect.gen(function*() {
        const organization = yield* freshOrganization
        const members = yield* TeamMembers.TeamMembers
        const teams = yield* Teams.Teams
        const user = yield* addMember(organization.id, "leaving@example.com", "editor")
        yield* addMember(organization.id, "staying@example.com")
        const team = yield* createTeam(organization.id, "Team")
        const membership = yield* members.add(system, organization.id, team.id, new Team.AddTeamMember({ identifier: user.email }))
        yield* members.add(system, organization.id, team.id, new Team.AddTeamMember({ identifier: "staying@example.com" }))

        yield* (yield* Users.Users).remove(system, organization.id, user.email)
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
