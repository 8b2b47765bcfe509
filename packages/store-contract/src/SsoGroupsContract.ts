/** Contract: SSO group mappings: creation with roles, listing in both page shapes, renames. */
import { describe, expect, type Vitest } from "@effect/vitest"
import { Effect, TestClock } from "effect"
import { randomUUID } from "node:crypto"
import { IdentityRepo, Precondition, SsoGroups } from "@costline/core"
import type { Ids, SsoGroup } from "@costline/core"
import { createSsoGroup, drainPages, failureTag, grant, system } from "./AccessFixtures.js"
import { type ContractServices, drainExport, freshOrganization, ifMatch } from "./Fixtures.js"

const fields = { size: "query.max_results" }

export const ssoGroupsContract = (it: Vitest.MethodsNonLive<ContractServices>) => {
  describe("SSO groups", () => {
    it.effect("creates a mapping with its roles in the order given, auditing the mapping and each role", () =>
      Effect.gen(function*() {
        const groups = yield* SsoGroups.SsoGroups
        const organization = yield* freshOrganization
        const created = yield* createSsoGroup(organization.id, " Okta Admins ", [
          grant("admin", "organization"),
          grant("viewer", "lh_account", "lake-1"),
          grant("editor", "organization", organization.id)
        ])
        expect(created.group.name).toBe("Okta Admins")
        expect(created.roles.map((role) => [role.role, role.scope.type, role.scope.id, role.scope.name])).toEqual([
          ["admin", "organization", organization.id, "Contract test"],
          ["viewer", "lh_account", "lake-1", "lake-1"],
          ["editor", "organization", organization.id, "Contract test"]
        ])
        expect(yield* groups.get(organization.id, created.group.id)).toEqual(created)

        const { records } = yield* drainExport(organization.id)
        expect(records.map((record) => [record.resource, record.table_name, record.operation])).toEqual([
          ["user_roles", "sso_groups", "create"],
          ["user_roles", "role_assignments", "create"],
          ["user_roles", "role_assignments", "create"],
          ["user_roles", "role_assignments", "create"]
        ])
        expect(records[2]!.new_values).toEqual({ sso_group: "Okta Admins", role: "viewer", scope_type: "lh_account", scope_id: "lake-1" })
      }))

    it.effect("refuses a taken name (exactly as spelled), bad scopes at their index, and a role listed twice; nothing is written", () =>
      Effect.gen(function*() {
        const organization = yield* freshOrganization
        yield* createSsoGroup(organization.id, "Data", [grant("viewer", "organization")])
        expect(yield* failureTag(createSsoGroup(organization.id, "Data", [grant("admin", "organization")]))).toBe("AlreadyExists")
        yield* createSsoGroup(organization.id, "data", [grant("viewer", "organization")])

        const badScopes = yield* Effect.flip(createSsoGroup(organization.id, "Bad", [
          grant("viewer", "organization"),
          grant("viewer", "usage_group", randomUUID()),
          grant("viewer", "dw_account")
        ]))
        expect(badScopes).toMatchObject({
          _tag: "ValidationFailed",
          details: [{ field: "roles[1].scope.id" }, { field: "roles[2].scope.id" }]
        })
        const twice = yield* Effect.flip(createSsoGroup(organization.id, "Twice", [grant("viewer", "organization"), grant("viewer", "organization")]))
        expect(twice).toMatchObject({ _tag: "ValidationFailed", details: [{ field: "roles[1]", issue: "duplicate" }] })
        expect(yield* failureTag((yield* SsoGroups.SsoGroups).get(organization.id, randomUUID() as SsoGroup.SsoGroupId))).toBe("NotFound")

        const { records } = yield* drainExport(organization.id, { filters: { table_name_in: ["sso_groups"] } })
        expect(records.map((record) => record.new_values?.["name"])).toEqual(["Data", "data"])
        const { records: roleRecords } = yield* drainExport(organization.id, { filters: { table_name_in: ["role_assignments"] } })
        expect(roleRecords).toHaveLength(2)
      }))

    it.effect("lists mappings with their roles by creation, as keyset pages and as offset pages", () =>
      Effect.gen(function*() {
        const groups = yield* SsoGroups.SsoGroups
        const [organization, other] = [yield* freshOrganization, yield* freshOrganization]
        const created = []
        for (const name of ["a", "b", "c", "d", "e"]) {
          yield* TestClock.adjust("1 millis")
          created.push(yield* createSsoGroup(organization.id, name, [grant("viewer", "bi_site", `site-${name}`)]))
        }
        yield* createSsoGroup(other.id, "a", [grant("viewer", "organization")])

        const pages = yield* drainPages(2, (request) => groups.list(organization.id, request, fields))
        expect(pages.items).toEqual(created)
        expect(pages.sizes).toEqual([2, 2, 1])

        const offset = yield* groups.listOffset(organization.id, { offset: 3, limit: 1 }, { size: "query.limit" })
        expect(offset).toEqual({ items: [created[3]], remaining_count: 1 })
        expect(yield* groups.listOffset(organization.id, { offset: 5, limit: 10 }, { size: "query.limit" }))
          .toEqual({ items: [], remaining_count: 0 })

        const first = yield* groups.list(organization.id, { pageToken: undefined, maxResults: 1 }, fields)
        expect(yield* failureTag(groups.list(other.id, { pageToken: first.page_token!, maxResults: 1 }, fields)))
          .toBe("InvalidPageToken")
      }))

    it.effect("renames by id (with If-Match) and by name, audited; a taken name or a stale ETag is refused", () =>
      Effect.gen(function*() {
        const groups = yield* SsoGroups.SsoGroups
        const organization = yield* freshOrganization
        const { group } = yield* createSsoGroup(organization.id, "before", [grant("viewer", "organization")])
        yield* createSsoGroup(organization.id, "taken", [grant("viewer", "organization")])
        const condition = ifMatch(SsoGroups.ssoGroupEtag(group))

        const renamed = yield* groups.update(system, organization.id, group.id, { name: "after" }, condition)
        expect(renamed.group.name).toBe("after")
        expect(renamed.roles).toHaveLength(1)
        expect(yield* failureTag(groups.update(system, organization.id, group.id, { name: "again" }, condition))).toBe("PreconditionFailed")
        expect(yield* failureTag(groups.update(system, organization.id, group.id, { name: "taken" }, Precondition.none))).toBe("AlreadyExists")
        expect(yield* failureTag(groups.renameByName(system, organization.id, "before", "x"))).toBe("NotFound")
        const byName = yield* groups.renameByName(system, organization.id, "after", "last")
        expect(byName.group).toMatchObject({ id: group.id, name: "last" })
        expect(yield* groups.update(system, organization.id, group.id, {}, Precondition.none)).toEqual(byName)

        const { records } = yield* drainExport(organization.id, { filters: { operation_in: ["update"] } })
        expect(records.map((record) => [record.table_name, record.old_values, record.new_values])).toEqual([
          ["sso_groups", { name: "before" }, { name: "after" }],
          ["sso_groups", { name: "after" }, { name: "last" }]
        ])
      }))

    it.effect("a mapping's roles are its own: they are not a user's or a team's", () =>
      Effect.gen(function*() {
        const organization = yield* freshOrganization
        const created = yield* createSsoGroup(organization.id, "own", [grant("viewer", "organization")])
        const stored = yield* (yield* IdentityRepo.RoleAssignmentsRepo).findById(organization.id, created.roles[0]!.id as Ids.RoleAssignmentId)
        expect(stored._tag === "Some" && [stored.value.subject_type, stored.value.subject_id]).toEqual(["sso_group", created.group.id])
      }))
  })
}
