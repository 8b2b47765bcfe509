import { describe, expect, it } from "@effect/vitest"
import { DateTime } from "effect"
import { filter, merge, organizationWide, type RoleSources } from "../../src/identity/EffectiveRoles.js"
import type { Role, ScopeType } from "../../src/identity/Domain.js"
import { RoleAssignment } from "../../src/identity/RoleAssignment.js"
import type { OrganizationId, RoleAssignmentId, TeamId } from "../../src/shared/Ids.js"
import { Team } from "../../src/teams/Domain.js"

const ORG = "acme" as OrganizationId
/** A valid UUID ending in `suffix` (two hex digits), so ids sort as their suffixes do. */
const uuid = (suffix: string) => `00000000-0000-4000-8000-0000000000${suffix}`
const at = (minute: number) => DateTime.unsafeMake(Date.UTC(2025, 0, 1, 0, minute))

const team = (name: string, minute: number, allUsers = false) =>
  new Team({
    id: uuid(`f${minute}`) as TeamId,
    organization_id: ORG,
    name,
    is_all_users: allUsers,
    default_member_role: "viewer",
    created_at: at(minute),
    updated_at: at(minute),
    etag: `"${name}"`
  })

const grant = (id: string, role: Role, scope: ScopeType, scopeId: string | null, minute: number, subject = "subject") =>
  new RoleAssignment({
    id: uuid(id) as RoleAssignmentId,
    organization_id: ORG,
    subject_type: "user",
    subject_id: subject,
    role,
    scope_type: scope,
    scope_id: scopeId,
    created_at: at(minute),
    updated_at: at(minute)
  })

const everyone = team("Everyone", 2, true)
const data = team("Data", 4)

const sources: RoleSources = {
  direct: [grant("d1", "editor", "organization", ORG, 5), grant("d2", "admin", "dw_account", "acct-1", 1)],
  allUsersTeam: everyone,
  inherited: [
    { team: everyone, grant: grant("e1", "viewer", "bi_site", "tableau", 3) },
    { team: data, grant: grant("c1", "monitor_editor", "organization", null, 6) }
  ]
}

/** Ids shown by their suffix, as the fixtures name them. */
const short = (id: string) => (id.startsWith("00000000-0000-4000-8000-0000000000") ? id.slice(-2) : id)

const summary = (roles: ReturnType<typeof merge>) =>
  roles.map((role) => [short(role.id), role.role, `${role.scope.type}:${role.scope.id}`, role.is_default, role.granted_from_team_name])

describe("merge", () => {
  it("lists direct, default and team-inherited roles by creation, each marked with where it comes from", () => {
    expect(summary(merge(ORG, sources))).toEqual([
      ["d2", "admin", "dw_account:acct-1", false, null],
      ["f2", "viewer", "organization:acme", true, null],
      ["e1", "viewer", "bi_site:tableau", false, "Everyone"],
      ["d1", "editor", "organization:acme", false, null],
      // A grant stored without a scope id at organization scope is the tenant's.
      ["c1", "monitor_editor", "organization:acme", false, "Data"]
    ])
  })

  it("an organization without an all-users team gives no default role", () => {
    expect(merge(ORG, { ...sources, allUsersTeam: undefined }).some((role) => role.is_default)).toBe(false)
  })

  it("roles created in the same instant are ordered by id", () => {
    const direct = [grant("0b", "viewer", "organization", ORG, 1), grant("0a", "editor", "organization", ORG, 1)]
    expect(merge(ORG, { direct, allUsersTeam: undefined, inherited: [] }).map((role) => short(role.id))).toEqual(["0a", "0b"])
  })
})

describe("organizationWide", () => {
  it("keeps each role held at organization scope once, whatever its source; narrower scopes do not count", () => {
    expect([...organizationWide(merge(ORG, sources))].sort()).toEqual(["editor", "monitor_editor", "viewer"])
  })
})

describe("filter", () => {
  const merged = merge(ORG, sources)
  it.each([
    ["no filter", {}, ["d2", "f2", "e1", "d1", "c1"]],
    ["empty lists", { roles: [], scopeTypes: [] }, ["d2", "f2", "e1", "d1", "c1"]],
    ["roles", { roles: ["viewer", "admin"] as Array<Role> }, ["d2", "f2", "e1"]],
    ["scope types", { scopeTypes: ["organization"] as Array<ScopeType> }, ["f2", "d1", "c1"]],
    ["both", { roles: ["viewer"] as Array<Role>, scopeTypes: ["bi_site"] as Array<ScopeType> }, ["e1"]]
  ])("%s", (_, filters, ids) => {
    expect(filter(merged, filters).map((role) => short(role.id))).toEqual(ids)
  })
})
