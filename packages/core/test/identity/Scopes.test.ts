import { describe, expect, it } from "@effect/vitest"
import { Either } from "effect"
import type { ScopeType } from "../../src/identity/Domain.js"
import { EXTERNAL_SCOPE_TYPES, isExternal } from "../../src/identity/Scope.js"
import { normalizeScope } from "../../src/identity/Scopes.js"
import type { OrganizationId } from "../../src/shared/Ids.js"

const ORG = "acme" as OrganizationId

describe("normalizeScope", () => {
  it.each([
    ["the organization, without an id, is the tenant", { type: "organization" }, Either.right({ type: "organization", id: "acme" })],
    ["the organization, with a null id", { type: "organization", id: null }, Either.right({ type: "organization", id: "acme" })],
    ["the organization, by the tenant's id", { type: "organization", id: " acme " }, Either.right({ type: "organization", id: "acme" })],
    ["another organization", { type: "organization", id: "other" }, Either.left("the organization scope of this tenant has id 'acme'")],
    ["a warehouse account, trimmed", { type: "dw_account", id: " a-1 " }, Either.right({ type: "dw_account", id: "a-1" })],
    ["a usage group without an id", { type: "usage_group" }, Either.left("a usage_group scope needs an id")],
    ["a BI site without an id", { type: "bi_site", id: null }, Either.left("a bi_site scope needs an id")]
  ] as const)("%s", (_, input, expected) => {
    expect(normalizeScope(ORG, input)).toStrictEqual(expected)
  })
})

describe("external scope types", () => {
  it("are the ones costline holds nothing for", () => {
    const all: ReadonlyArray<ScopeType> = ["organization", "dw_organization", "dw_account", "lh_account", "lh_connection", "bi_site", "usage_group"]
    expect(all.filter(isExternal)).toEqual([...EXTERNAL_SCOPE_TYPES])
    expect(all.filter((type) => !isExternal(type))).toEqual(["organization", "dw_account", "usage_group"])
  })
})
