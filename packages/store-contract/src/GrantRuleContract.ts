/**
 * Contract: a grant can never give more than the granter holds (identity/GrantRule), enforced by
 * core's granting services over the store, so every embedder gets it.
 *
 * The property: for a random organization (members with roles at several scopes, a team with
 * roles, maybe an all-users team, an SSO mapping), a random principal and a random grant of any
 * kind, what each holder (every member, every SSO group) holds afterwards is within what it held
 * before plus what the granter holds. So the union over everyone never grows beyond that either.
 */
import { describe, expect, type Vitest } from "@effect/vitest"
import { Effect, FastCheck as fc } from "effect"
import { Actor, Authorization, EffectiveRoles, GrantRule, Identity, Invitations, Permissions, Precondition, RoleSources, SsoGroup, SsoGroups, Team, TeamMembers, TeamRoles, Teams, UserRoles, Users } from "@costline/core"
import type { Ids, RoleScope } from "@costline/core"
import { drainExport, freshOrganization, keyActor, memberActor } from "./Fixtures.js"
import type { SecretsContractServices } from "./SecretsFixtures.js"

const system = Actor.Actor.system()

const AREAS: ReadonlyArray<Identity.Area> = ["audit_logs", "insights", "ticket_links", "teams", "sso_groups", "users", "usage_groups", "dw_accounts"]
const KEY_SCOPES: ReadonlyArray<Identity.ApiKeyScope> = ["*", ...AREAS.flatMap((area) => [`${area}:read`, `${area}:write`] as const)]

/** Scopes that need no target in the store: the organization and external ids. */
const SCOPES: ReadonlyArray<RoleScope.RoleGrant["scope"]> = [
  { type: "organization" },
  { type: "dw_organization", id: "wh-1" },
  { type: "dw_organization", id: "wh-2" },
  { type: "bi_site", id: "site-1" }
]

const role = fc.constantFrom(...Identity.Role.literals)
const scopedRole = fc.record({ role, scope: fc.constantFrom(...SCOPES) })

const world = fc.record({
  /** Each member's role at organization scope, and more at other scopes. */
  members: fc.array(fc.record({ base: role, more: fc.array(scopedRole, { maxLength: 3 }) }), { minLength: 2, maxLength: 3 }),
  teamRoles: fc.array(scopedRole, { maxLength: 2 }),
  /** Which members are in the team. */
  inTeam: fc.array(fc.boolean(), { minLength: 3, maxLength: 3 }),
  allUsersRole: fc.option(fc.constantFrom(...Team.MemberRole.literals), { nil: undefined }),
  ssoRoles: fc.array(scopedRole, { minLength: 1, maxLength: 2 })
})

const granter = fc.oneof(
  fc.record({
    kind: fc.constant("key" as const),
    access: fc.constantFrom("read_only" as const, "read_write" as const, "admin" as const),
    scopes: fc.subarray([...KEY_SCOPES], { minLength: 1, maxLength: 4 })
  }),
  fc.record({ kind: fc.constant("member" as const), index: fc.nat() })
)

const grant = fc.oneof(
  fc.record({ kind: fc.constant("direct" as const), member: fc.nat(), grant: scopedRole }),
  fc.record({ kind: fc.constant("team role" as const), allUsers: fc.boolean(), grant: scopedRole }),
  fc.record({ kind: fc.constant("team member" as const), member: fc.nat() }),
  fc.record({ kind: fc.constant("all-users team" as const), role: fc.constantFrom(...Team.MemberRole.literals) }),
  fc.record({ kind: fc.constant("all-users default" as const), role: fc.constantFrom(...Team.MemberRole.literals) }),
  fc.record({ kind: fc.constant("sso mapping" as const), roles: fc.array(scopedRole, { minLength: 1, maxLength: 2 }) }),
  fc.record({ kind: fc.constant("sso rename" as const) })
)

/** `teams:write@organization:org-1`: one permission at one scope. */
const { holdingsOfKey, holdingsOfRoles } = GrantRule
type Holding = GrantRule.Holding
type ScopedGrant = GrantRule.ScopedGrant

const entries = (holdings: ReadonlyArray<Holding>) =>
  new Set(holdings.flatMap((holding) => holding.permissions.map((p) => `${Permissions.describe(p)}@${holding.scope.type}:${holding.scope.id}`)))

/** Whether `entry` is within `held`: held at that scope, or at organization scope. */
const within = (organizationId: Ids.OrganizationId, held: ReadonlySet<string>, entry: string) => {
  const [permission] = entry.split("@")
  return held.has(entry) || held.has(`${permission}@organization:${organizationId}`)
}

export const grantRuleContract = (it: Vitest.MethodsNonLive<SecretsContractServices>) => {
  /** Builds the organization a run works in. */
  const build = (shape: typeof world extends fc.Arbitrary<infer W> ? W : never) =>
    Effect.gen(function*() {
      const organization = yield* freshOrganization
      const organizationId = organization.id
      const users = yield* Users.Users
      const userRoles = yield* UserRoles.UserRoles
      const teams = yield* Teams.Teams
      const members: Array<{ readonly id: string; readonly email: string }> = []
      for (const [index, member] of shape.members.entries()) {
        const email = `member-${index}@example.com`
        const user = yield* users.add(system, organizationId, { email, role: member.base })
        for (const more of member.more) yield* Effect.either(userRoles.grant(system, organizationId, email, more))
        members.push({ id: user.id, email })
      }
      const team = yield* teams.create(system, organizationId, new Team.CreateTeam({ name: "Team", is_all_users: false, default_member_role: "viewer" }))
      for (const teamRole of shape.teamRoles) yield* Effect.either((yield* TeamRoles.TeamRoles).grant(system, organizationId, team.id, teamRole))
      for (const [index, member] of members.entries()) {
        if (shape.inTeam[index]) yield* (yield* TeamMembers.TeamMembers).add(system, organizationId, team.id, new Team.AddTeamMember({ identifier: member.email }))
      }
      const allUsers = shape.allUsersRole === undefined ? undefined : yield* teams.create(
        system,
        organizationId,
        new Team.CreateTeam({ name: "Everyone", is_all_users: true, default_member_role: shape.allUsersRole })
      )
      const sso = yield* Effect.either((yield* SsoGroups.SsoGroups).create(system, organizationId, new SsoGroup.CreateSsoGroup({ name: "okta-team", roles: shape.ssoRoles })))
      return {
        organizationId,
        members,
        teamId: team.id,
        allUsersId: allUsers?.id,
        ssoId: sso._tag === "Right" ? sso.right.group.id : undefined
      }
    })

  /** What every holder holds: each member (every source of roles) and each SSO group (by name: who gets its roles). */
  const holders = (organizationId: Ids.OrganizationId, members: ReadonlyArray<{ readonly id: string }>) =>
    Effect.gen(function*() {
      const effectiveRoles = yield* RoleSources.makeEffectiveRolesReader
      const held = new Map<string, ReadonlySet<string>>()
      for (const member of members) {
        const roles = yield* effectiveRoles(organizationId, member.id as never)
        held.set(`user:${member.id}`, entries(holdingsOfRoles(roles)))
      }
      const groups = yield* (yield* SsoGroups.SsoGroups).listOffset(organizationId, { offset: 0, limit: 100 }, { size: "limit" })
      for (const { group, roles } of groups.items) {
        held.set(`sso:${group.name}`, entries(holdingsOfRoles(roles.map((r): ScopedGrant => ({ role: r.role, scope: r.scope })))))
      }
      return held
    })

  describe("grant rule", () => {
    it.effect.prop(
      "after any grant by any principal, every holder holds at most what it held plus what the granter holds",
      { shape: world, by: granter, change: grant },
      ({ by, change, shape }) =>
        Effect.gen(function*() {
          const { allUsersId, members, organizationId, ssoId, teamId } = yield* build(shape)
          const effectiveRoles = yield* RoleSources.makeEffectiveRolesReader
          let principal: Identity.Principal
          if (by.kind === "key") {
            principal = keyActor(organizationId, by.access, by.scopes).principal!
          } else {
            const member = members[by.index % members.length]!
            const roles = yield* effectiveRoles(organizationId, member.id as never)
            principal = memberActor(organizationId, member.email, EffectiveRoles.organizationWide(roles), member.id as never).principal!
          }
          const granterHolds = entries(
            principal._tag === "ApiKey"
              ? holdingsOfKey(principal)
              : holdingsOfRoles(yield* effectiveRoles(organizationId, principal.userId))
          )
          const actor = Authorization.actorOf(principal, null)
          const before = yield* holders(organizationId, members)

          const memberOf = (index: number) => members[index % members.length]!
          const attempt = (() => {
            switch (change.kind) {
              case "direct":
                return Effect.flatMap(UserRoles.UserRoles, (s) => s.grant(actor, organizationId, memberOf(change.member).email, change.grant))
              case "team role":
                return Effect.flatMap(TeamRoles.TeamRoles, (s) => s.grant(actor, organizationId, (change.allUsers && allUsersId !== undefined ? allUsersId : teamId) as Ids.TeamId, change.grant))
              case "team member":
                return Effect.flatMap(TeamMembers.TeamMembers, (s) => s.add(actor, organizationId, teamId, new Team.AddTeamMember({ identifier: memberOf(change.member).email })))
              case "all-users team":
                return Effect.flatMap(Teams.Teams, (s) => s.create(actor, organizationId, new Team.CreateTeam({ name: "All", is_all_users: true, default_member_role: change.role })))
              case "all-users default":
                return allUsersId === undefined
                  ? Effect.void
                  : Effect.flatMap(Teams.Teams, (s) => s.update(actor, organizationId, allUsersId, { default_member_role: change.role }, Precondition.none))
              case "sso mapping":
                return Effect.flatMap(SsoGroups.SsoGroups, (s) => s.create(actor, organizationId, new SsoGroup.CreateSsoGroup({ name: "okta-new", roles: change.roles })))
              case "sso rename":
                return ssoId === undefined
                  ? Effect.void
                  : Effect.flatMap(SsoGroups.SsoGroups, (s) => s.update(actor, organizationId, ssoId as SsoGroup.SsoGroupId, { name: "okta-everyone" }, Precondition.none))
            }
          })()
          const outcome = yield* Effect.either(attempt as Effect.Effect<unknown, { readonly _tag: string }>)
          if (outcome._tag === "Left") expect(["Forbidden", "AlreadyExists", "ValidationFailed", "Conflict"]).toContain(outcome.left._tag)

          const after = yield* holders(organizationId, members)
          for (const [holder, held] of after) {
            const had = before.get(holder) ?? new Set<string>()
            const gained = [...held].filter((entry) => !within(organizationId, had, entry) && !within(organizationId, granterHolds, entry))
            expect(gained, `${holder} after ${change.kind}`).toEqual([])
          }
        }),
      { timeout: 120_000, fastCheck: { numRuns: 30 } }
    )

    it.effect("a principal may grant what it holds at that scope or wider, and nothing else; refusals are audited", () =>
      Effect.gen(function*() {
        const organization = yield* freshOrganization
        const organizationId = organization.id
        const users = yield* Users.Users
        const userRoles = yield* UserRoles.UserRoles
        const owner = yield* users.add(system, organizationId, { email: "owner@example.com", role: "viewer" })
        yield* users.add(system, organizationId, { email: "peer@example.com", role: "viewer" })
        // Admin of one warehouse organization only.
        yield* userRoles.grant(system, organizationId, "owner@example.com", { role: "admin", scope: { type: "dw_organization", id: "wh-1" } })
        const ownerActor = memberActor(organizationId, owner.email, ["viewer"], owner.id)

        const there = { role: "editor", scope: { type: "dw_organization", id: "wh-1" } } as const
        const elsewhere = { role: "editor", scope: { type: "dw_organization", id: "wh-2" } } as const
        const wider = { role: "editor", scope: { type: "organization" } } as const
        expect((yield* userRoles.grant(ownerActor, organizationId, "peer@example.com", there)).role).toBe("editor")
        expect((yield* Effect.flip(userRoles.grant(ownerActor, organizationId, "peer@example.com", elsewhere)))._tag).toBe("Forbidden")
        expect((yield* Effect.flip(userRoles.grant(ownerActor, organizationId, "peer@example.com", wider)))._tag).toBe("Forbidden")
        // What the viewer role gives at organization scope reaches every scope.
        const viewerThere = { role: "viewer", scope: { type: "bi_site", id: "site-9" } } as const
        expect((yield* userRoles.grant(ownerActor, organizationId, "peer@example.com", viewerThere)).role).toBe("viewer")

        // Keys: `*` with admin access may grant admin; without admin access, everything but admin.
        const adminKey = keyActor(organizationId, "admin", ["*"])
        const writer = keyActor(organizationId, "read_write", ["*"])
        const orgAdmin = { role: "admin", scope: { type: "organization" } } as const
        expect((yield* Effect.flip(userRoles.grant(writer, organizationId, "peer@example.com", orgAdmin))).message).toBe(
          "not allowed to grant admin at organization scope: the caller does not hold audit_logs:export there"
        )
        expect((yield* userRoles.grant(adminKey, organizationId, "peer@example.com", orgAdmin)).role).toBe("admin")
        // An actor that names a user but carries no principal may grant nothing; the operator anything.
        const unnamed = new Actor.Actor({ changedBy: "someone@example.com", changedByType: "user", requestId: null })
        expect((yield* Effect.flip(userRoles.grant(unnamed, organizationId, "owner@example.com", viewerThere)))._tag).toBe("Forbidden")
        // A principal of another organization grants nothing here.
        const stranger = keyActor("org-elsewhere" as Ids.OrganizationId, "admin", ["*"])
        expect((yield* Effect.flip(userRoles.grant(stranger, organizationId, "owner@example.com", viewerThere)))._tag).toBe("Forbidden")

        const { records } = yield* drainExport(organizationId, { filters: { table_name_in: ["role_assignments"], status_in: ["failure"] } })
        expect(records.map((record) => [record.changed_by, record.new_values?.["scope_id"]])).toEqual([
          [owner.email, "wh-2"],
          [owner.email, null],
          [writer.changedBy, null],
          ["someone@example.com", "site-9"],
          [stranger.changedBy, "site-9"]
        ])
      }))

    it.effect("adding a member and inviting someone grant their role too", () =>
      Effect.gen(function*() {
        const organization = yield* freshOrganization
        const organizationId = organization.id
        const users = yield* Users.Users
        const invitations = yield* Invitations.Invitations
        const writer = keyActor(organizationId, "read_write", ["*"])
        expect((yield* Effect.flip(users.add(writer, organizationId, { email: "boss@example.com", role: "admin" })))._tag).toBe("Forbidden")
        expect((yield* Effect.flip(invitations.create(writer, organizationId, { email: "boss@example.com", role: "admin" })))._tag).toBe("Forbidden")
        expect((yield* users.add(writer, organizationId, { email: "dev@example.com", role: "editor" })).email).toBe("dev@example.com")
        expect((yield* invitations.create(writer, organizationId, { email: "new@example.com", role: "editor" })).invitation.role).toBe("editor")
        const { records } = yield* drainExport(organizationId)
        expect(records.map((record) => [record.table_name, record.status, record.new_values?.["email"]])).toEqual([
          ["role_assignments", "failure", "boss@example.com"],
          ["invitations", "failure", "boss@example.com"],
          ["role_assignments", "success", "dev@example.com"],
          ["invitations", "success", "new@example.com"]
        ])
      }))

    it.effect("a refused grant writes nothing but its failure record", () =>
      Effect.gen(function*() {
        const organization = yield* freshOrganization
        const organizationId = organization.id
        const teams = yield* Teams.Teams
        const teamsKey = keyActor(organizationId, "read_write", ["teams:write"])
        const team = yield* teams.create(teamsKey, organizationId, new Team.CreateTeam({ name: "Ops", is_all_users: false, default_member_role: "admin" }))
        const refused = yield* Effect.flip((yield* TeamRoles.TeamRoles).grant(teamsKey, organizationId, team.id, { role: "viewer", scope: { type: "organization" } }))
        expect(refused._tag).toBe("Forbidden")
        const everyone = yield* Effect.flip(teams.create(teamsKey, organizationId, new Team.CreateTeam({ name: "All", is_all_users: true, default_member_role: "viewer" })))
        expect(everyone._tag).toBe("Forbidden")
        const details = yield* teams.detailsOffset(organizationId, team.id, {
          members: { offset: 0, limit: 10 },
          roles: { offset: 0, limit: 10 },
          fields: { members: { size: "members_limit" }, roles: { size: "roles_limit" } }
        })
        expect(details.role_count).toBe(0)
        const { records } = yield* drainExport(organizationId)
        expect(records.map((record) => [record.table_name, record.operation, record.status])).toEqual([
          ["teams", "create", "success"],
          ["team_roles", "create", "failure"],
          ["teams", "create", "failure"]
        ])
      }))
  })
}
