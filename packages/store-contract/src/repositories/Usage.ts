/** Repository level: UsageGroupsRepo, directly, without core's services. */
import { describe, expect, type Vitest } from "@effect/vitest"
import { Effect, Either, Option } from "effect"
import { Usage, UsageFilter, UsageRepo } from "@costline/core"
import type { Ids } from "@costline/core"
import { type ContractServices, freshOrganization } from "../Fixtures.js"
import { now, uuid } from "./Support.js"

const setOf = (organizationId: Ids.OrganizationId, name: string) =>
  Effect.map(now, (at) =>
    new Usage.UsageGroupSet({ id: uuid<Usage.UsageGroupSetId>(), organization_id: organizationId, name, order: 0, team_id: null, created_at: at, updated_at: at, etag: "set-etag" }))

const groupOf = (set: Usage.UsageGroupSet, name: string, order: number) =>
  Effect.map(now, (at) =>
    new Usage.UsageGroup({
      id: uuid<Usage.UsageGroupId>(),
      organization_id: set.organization_id,
      usage_group_set_id: set.id,
      usage_group_set_name: set.name,
      name,
      budget: 100,
      order,
      filter_expression: UsageFilter.and(UsageFilter.leaf(["warehouse_name"], "=", "ETL")),
      created_at: at,
      updated_at: at,
      etag: `${name}-1`
    }))

export const usageRepositories = (it: Vitest.MethodsNonLive<ContractServices>) => {
  describe("UsageGroupsRepo", () => {
    it.effect("sets and groups round-trip, in precedence order, only within their organization and set", () =>
      Effect.gen(function*() {
        const [organization, other] = [yield* freshOrganization, yield* freshOrganization]
        const repo = yield* UsageRepo.UsageGroupsRepo
        const set = yield* setOf(organization.id, "Cost centers")
        yield* repo.insertSet(set)
        expect(yield* repo.findSet(organization.id, set.id)).toEqual(Option.some(set))
        expect(yield* repo.findSet(other.id, set.id)).toEqual(Option.none())
        const refused = yield* Effect.either(repo.insertSet(new Usage.UsageGroupSet({ ...set, id: uuid<Usage.UsageGroupSetId>(), name: "COST CENTERS" })))
        expect(Either.isLeft(refused) && refused.left._tag).toBe("AlreadyExists")

        const [second, first] = [yield* groupOf(set, "BI", 2), yield* groupOf(set, "ETL", 1)]
        yield* repo.insertGroup(second)
        yield* repo.insertGroup(first)
        expect(yield* repo.findGroup(organization.id, set.id, first.id)).toEqual(Option.some(first))
        expect(yield* repo.findGroup(other.id, set.id, first.id)).toEqual(Option.none())
        expect(yield* repo.findGroup(organization.id, uuid<Usage.UsageGroupSetId>(), first.id)).toEqual(Option.none())
        const page = (organizationId: Ids.OrganizationId) =>
          repo.listGroups({ organizationId, setId: set.id, after: Option.none(), limit: Option.none() })
        expect(yield* page(organization.id)).toEqual([first, second])
        expect(yield* page(other.id)).toEqual([])
        expect(yield* repo.listGroups({
          organizationId: organization.id,
          setId: set.id,
          after: Option.some({ order: first.order, created_at: first.created_at, id: first.id }),
          limit: Option.some(10)
        })).toEqual([second])
      }))

    it.effect("updates and deletes happen only on the current ETag and in the group's organization", () =>
      Effect.gen(function*() {
        const [organization, other] = [yield* freshOrganization, yield* freshOrganization]
        const repo = yield* UsageRepo.UsageGroupsRepo
        const set = yield* setOf(organization.id, "Teams")
        yield* repo.insertSet(set)
        const group = yield* groupOf(set, "ETL", 1)
        yield* repo.insertGroup(group)
        const changed = new Usage.UsageGroup({ ...group, name: "Loading", budget: null, etag: "ETL-2" })
        expect(yield* repo.updateGroupIfEtag(changed, "stale")).toBe(false)
        expect(yield* repo.updateGroupIfEtag(new Usage.UsageGroup({ ...changed, organization_id: other.id }), group.etag)).toBe(false)
        expect(yield* repo.findGroup(organization.id, set.id, group.id)).toEqual(Option.some(group))
        expect(yield* repo.updateGroupIfEtag(changed, group.etag)).toBe(true)
        expect(yield* repo.findGroup(organization.id, set.id, group.id)).toEqual(Option.some(changed))
        expect(yield* repo.deleteGroupIfEtag(organization.id, set.id, group.id, group.etag)).toBe(false)
        expect(yield* repo.deleteGroupIfEtag(other.id, set.id, group.id, changed.etag)).toBe(false)
        expect(yield* repo.deleteGroupIfEtag(organization.id, set.id, group.id, changed.etag)).toBe(true)
        expect(yield* repo.findGroup(organization.id, set.id, group.id)).toEqual(Option.none())
        expect(yield* repo.deleteGroupIfEtag(organization.id, set.id, group.id, changed.etag)).toBe(false)
      }))
  })
}
