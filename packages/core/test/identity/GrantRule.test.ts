import { describe, expect, it } from "@effect/vitest"
import { FastCheck as fc } from "effect"
import { type Access, type ApiKeyPrincipal, type ApiKeyScope, Area, Role } from "../../src/identity/Domain.js"
import * as GrantRule from "../../src/identity/GrantRule.js"
import * as Permissions from "../../src/identity/Permissions.js"
import type { ScopeRef } from "../../src/identity/Scope.js"
import { ApiKeyId, OrganizationId } from "../../src/shared/Ids.js"

const organizationId = OrganizationId.make("org-1")
const org: ScopeRef = { type: "organization", id: organizationId }
const wh1: ScopeRef = { type: "dw_organization", id: "wh-1" }
const wh2: ScopeRef = { type: "dw_organization", id: "wh-2" }
const site: ScopeRef = { type: "bi_site", id: "wh-1" }

const key = (access: Access, ...scopes: Array<ApiKeyScope>): ApiKeyPrincipal => ({
  _tag: "ApiKey",
  organizationId,
  keyId: ApiKeyId.make("00000000-0000-4000-8000-000000000003"),
  name: "ci",
  access,
  scopes
})

const roles = (...held: Array<readonly [Role, ScopeRef]>) => GrantRule.holdingsOfRoles(held.map(([role, scope]) => ({ role, scope })))
const may = (holdings: ReadonlyArray<GrantRule.Holding>, role: Role, scope: ScopeRef) => GrantRule.lacking(holdings, { role, scope }).length === 0

describe("GrantRule", () => {
  it("admin confers every permission there is; viewer and monitor_editor only reads", () => {
    expect(Permissions.ofRole("admin")).toEqual(Permissions.ALL)
    expect(Permissions.ofRole("viewer").every((p) => p.action === "read")).toBe(true)
    expect(Permissions.ofRole("monitor_editor")).toEqual(Permissions.ofRole("viewer"))
  })

  it("the organization scope reaches every scope; any other scope only itself", () => {
    expect(GrantRule.reaches(org, wh1)).toBe(true)
    expect(GrantRule.reaches(wh1, wh1)).toBe(true)
    expect(GrantRule.reaches(wh1, wh2)).toBe(false)
    expect(GrantRule.reaches(wh1, org)).toBe(false)
    // Same id, other type: another scope.
    expect(GrantRule.reaches(wh1, site)).toBe(false)
  })

  it.each([
    ["admin at org", roles(["admin", org]), "admin", wh1, true],
    ["admin at org", roles(["admin", org]), "admin", org, true],
    ["admin at wh-1", roles(["admin", wh1]), "admin", wh1, true],
    ["admin at wh-1", roles(["admin", wh1]), "editor", wh2, false],
    ["admin at wh-1", roles(["admin", wh1]), "viewer", org, false],
    ["editor at org", roles(["editor", org]), "editor", wh1, true],
    ["editor at org", roles(["editor", org]), "admin", wh1, false],
    ["editor at org", roles(["editor", org]), "team_creator", org, false],
    ["viewer at org + admin at wh-1", roles(["viewer", org], ["admin", wh1]), "editor", wh1, true],
    ["viewer at org + admin at wh-1", roles(["viewer", org], ["admin", wh1]), "editor", wh2, false],
    ["team_creator at org", roles(["team_creator", org]), "viewer", org, true],
    ["team_creator at org", roles(["team_creator", org]), "editor", org, false],
    ["nothing", [], "viewer", wh1, false],
    ["admin key *", GrantRule.holdingsOfKey(key("admin", "*")), "admin", org, true],
    ["read_write key *", GrantRule.holdingsOfKey(key("read_write", "*")), "editor", org, true],
    ["read_write key *", GrantRule.holdingsOfKey(key("read_write", "*")), "admin", wh1, false],
    ["admin key users:write", GrantRule.holdingsOfKey(key("admin", "users:write")), "admin", org, false],
    ["admin key users:write", GrantRule.holdingsOfKey(key("admin", "users:write")), "viewer", org, false],
    ["read_only key *", GrantRule.holdingsOfKey(key("read_only", "*")), "viewer", wh1, true],
    ["read_only key *", GrantRule.holdingsOfKey(key("read_only", "*")), "team_creator", org, false],
    ["read_write key teams:write", GrantRule.holdingsOfKey(key("read_write", "teams:write")), "viewer", org, false]
  ] as const)("%s may grant %s at %o: %s", (_, holdings, role, scope, expected) => {
    expect(may(holdings, role, scope)).toBe(expected)
  })

  it("names what the granter lacks", () => {
    const refused = GrantRule.firstRefused(GrantRule.holdingsOfKey(key("read_write", "*")), [
      { role: "viewer", scope: org },
      { role: "admin", scope: org }
    ])
    expect(refused && GrantRule.refusalMessage(refused)).toBe(
      "not allowed to grant admin at organization scope: the caller does not hold audit_logs:export there"
    )
    expect(GrantRule.firstRefused([], [])).toBeUndefined()
  })

  const scope = fc.constantFrom(org, wh1, wh2, site)
  const heldRoles = fc.array(fc.tuple(fc.constantFrom(...Role.literals), scope), { maxLength: 4 })

  it.prop(
    "a grant allowed to some holdings is allowed to any holdings that include them (more rights never refuse more)",
    [heldRoles, heldRoles, fc.constantFrom(...Role.literals), scope],
    ([held, more, role, at]) => {
      const base = roles(...held)
      if (may(base, role, at)) expect(may([...base, ...roles(...more)], role, at)).toBe(true)
    }
  )

  it.prop(
    "whoever may grant a role holds, at that scope, every permission the role gives",
    [heldRoles, fc.constantFrom(...Role.literals), scope, fc.constantFrom(...Area.literals)],
    ([held, role, at, area]) => {
      const holdings = roles(...held)
      if (!may(holdings, role, at)) return
      for (const permission of Permissions.ofRole(role).filter((p) => p.area === area)) {
        expect(GrantRule.covers(holdings, permission, at)).toBe(true)
      }
    }
  )
})
