/**
 * Contract: usage group sets and groups (unique names, team scopes, precedence-ordered pages,
 * merge patches and ETags, audit records), through core's UsageGroups.
 */
import { describe, expect, type Vitest } from "@effect/vitest"
import { Effect, Either, TestClock } from "effect"
import { Actor, Precondition, Team, Teams, UsageGroups } from "@costline/core"
import type { Usage } from "@costline/core"
import { type ContractServices, freshOrganization, ifMatch } from "./Fixtures.js"
import { alice, createGroup, createSet, equals, patchInput, summary, usageRecords } from "./UsageFixtures.js"

export const usageGroupsContract = (it: Vitest.MethodsNonLive<ContractServices>) => {
  describe("usage group sets", () => {
    it.effect("reads back a created set, trimmed, and audits it", () =>
      Effect.gen(function*() {
        const organization = yield* freshOrganization
        const set = yield* createSet(organization.id, "  Cost centers ", { order: 3, dw_account_uuid: "ignored" })
        expect(set).toMatchObject({ name: "Cost centers", order: 3, team_id: null })
        expect(yield* (yield* UsageGroups.UsageGroups).getSet(organization.id, set.id)).toEqual(set)
        const [record] = yield* usageRecords(organization.id)
        expect(record).toMatchObject({
          resource: "usage_group_sets",
          table_name: "usage_group_sets",
          operation: "create",
          record_id: set.id,
          changed_by: "alice@example.com",
          new_values: { name: "Cost centers", order: 3, team_id: null }
        })
      }))

    it.effect("names are unique per organization ignoring case; the refusal writes nothing", () =>
      Effect.gen(function*() {
        const [organization, other] = [yield* freshOrganization, yield* freshOrganization]
        yield* createSet(organization.id, "Cost Centers")
        const duplicate = yield* Effect.flip(createSet(organization.id, " cost centers"))
        expect(duplicate).toMatchObject({ _tag: "AlreadyExists", message: "a usage group set named 'cost centers' already exists" })
        yield* createSet(other.id, "COST CENTERS")
        expect((yield* usageRecords(organization.id)).map(summary)).toHaveLength(1)
      }))

    it.effect("a team-scoped set needs a team of its own organization", () =>
      Effect.gen(function*() {
        const [organization, other] = [yield* freshOrganization, yield* freshOrganization]
        const teams = yield* Teams.Teams
        const team = yield* teams.create(Actor.Actor.system(), organization.id, new Team.CreateTeam({ name: "Data", is_all_users: false, default_member_role: "viewer" }))
        const foreign = yield* teams.create(Actor.Actor.system(), other.id, new Team.CreateTeam({ name: "Data", is_all_users: false, default_member_role: "viewer" }))
        expect((yield* createSet(organization.id, "By team", { team_id: team.id })).team_id).toBe(team.id)
        const refused = yield* Effect.flip(createSet(organization.id, "Foreign", { team_id: foreign.id }))
        expect(refused).toMatchObject({ _tag: "ValidationFailed", details: [{ field: "team_id", issue: "not_found" }] })
        expect((yield* usageRecords(organization.id)).map(summary)).toHaveLength(1)
      }))

    it.effect("a set is NotFound in another organization", () =>
      Effect.gen(function*() {
        const [organization, other] = [yield* freshOrganization, yield* freshOrganization]
        const set = yield* createSet(organization.id)
        expect(yield* Effect.flip((yield* UsageGroups.UsageGroups).getSet(other.id, set.id))).toMatchObject({ _tag: "NotFound" })
      }))
  })

  describe("usage groups", () => {
    it.effect("stores the normalised filter of either form, with the set's name, and audits it", () =>
      Effect.gen(function*() {
        const organization = yield* freshOrganization
        const set = yield* createSet(organization.id)
        const fromObject = yield* createGroup(organization.id, set.id, { name: " ETL ", budget: 120.5, order: 2 })
        const fromJson = yield* createGroup(organization.id, set.id, {
          name: "BI",
          filter_expression_json: JSON.stringify(equals("warehouse_name", "BI"))
        })
        const [first, second] = yield* (yield* UsageGroups.UsageGroups).allGroups(organization.id, set.id)
        expect(second).toEqual(fromObject)
        expect(first).toEqual(fromJson)
        expect(fromObject).toMatchObject({
          name: "ETL",
          budget: 120.5,
          order: 2,
          usage_group_set_id: set.id,
          usage_group_set_name: "Cost centers",
          filter_expression: {
            component_type: "Resource Filter",
            operator: "and",
            not: false,
            filters: [{ field: { field: "warehouse_name", path: ["warehouse_name"] }, operator: "=", value: "ETL", not: false }]
          }
        })
        const records = yield* usageRecords(organization.id)
        expect(records.map(summary).slice(1)).toEqual([
          ["usage_groups", "create", fromObject.id],
          ["usage_groups", "create", fromJson.id]
        ])
        expect(records[1]!.new_values).toEqual({
          usage_group_set_id: set.id,
          name: "ETL",
          budget: 120.5,
          order: 2,
          filter_expression: fromObject.filter_expression
        })
      }))

    it.effect("validates filters against the catalogue of the set's scope and stores nothing invalid", () =>
      Effect.gen(function*() {
        const organization = yield* freshOrganization
        const team = yield* (yield* Teams.Teams).create(
          Actor.Actor.system(),
          organization.id,
          new Team.CreateTeam({ name: "Data", is_all_users: false, default_member_role: "viewer" })
        )
        const teamSet = yield* createSet(organization.id, "Team", { team_id: team.id })
        const organizationSet = yield* createSet(organization.id, "Organization")
        const byAccount = { filter_expression: equals("account_name", "prod") }
        yield* createGroup(organization.id, organizationSet.id, { name: "Prod", ...byAccount })
        const refused = yield* Effect.flip(createGroup(organization.id, teamSet.id, { name: "Prod", ...byAccount }))
        expect(refused).toMatchObject({
          _tag: "ValidationFailed",
          details: [{ field: "filter_expression.filters[0].field.path", issue: "unknown" }]
        })
        expect(yield* (yield* UsageGroups.UsageGroups).allGroups(organization.id, teamSet.id)).toEqual([])
      }))

    it.effect("lists groups in precedence order (order, created_at, id), page by page", () =>
      Effect.gen(function*() {
        const organization = yield* freshOrganization
        const set = yield* createSet(organization.id)
        const other = yield* createSet(organization.id, "Other")
        const created: Array<Usage.UsageGroup> = []
        for (const order of [2, 0, 1, 0, 2, 0]) {
          yield* TestClock.adjust("1 second")
          created.push(yield* createGroup(organization.id, set.id, { name: `g${created.length}`, order }))
        }
        const usageGroups = yield* UsageGroups.UsageGroups
        const expected = [created[1], created[3], created[5], created[2], created[0], created[4]].map((g) => g!.id)
        expect((yield* usageGroups.allGroups(organization.id, set.id)).map((g) => g.id)).toEqual(expected)

        const seen: Array<string> = []
        const sizes: Array<number> = []
        let pageToken: string | undefined
        do {
          const page = yield* usageGroups.listGroups(organization.id, set.id, { pageToken, maxResults: 4 })
          sizes.push(page.items.length)
          seen.push(...page.items.map((g) => g.id))
          pageToken = page.page_token ?? undefined
        } while (pageToken !== undefined)
        expect(seen).toEqual(expected)
        expect(sizes).toEqual([4, 2])

        const first = yield* usageGroups.listGroups(organization.id, set.id, { pageToken: undefined, maxResults: 1 })
        const elsewhere = yield* Effect.flip(
          usageGroups.listGroups(organization.id, other.id, { pageToken: first.page_token!, maxResults: 1 })
        )
        expect(elsewhere).toMatchObject({ _tag: "InvalidPageToken", message: "page_token was issued for another list" })
        const exact = yield* usageGroups.listGroups(organization.id, set.id, { pageToken: undefined, maxResults: 6 })
        expect(exact.page_token).toBeNull()
        const badSize = yield* Effect.flip(usageGroups.listGroups(organization.id, set.id, { pageToken: undefined, maxResults: 501 }))
        expect(badSize).toMatchObject({ _tag: "ValidationFailed", details: [{ field: "query.max_results" }] })
      }))

    it.effect("a patch changes only what it names; a null budget removes the limit; the ETag follows", () =>
      Effect.gen(function*() {
        const organization = yield* freshOrganization
        const set = yield* createSet(organization.id)
        const group = yield* createGroup(organization.id, set.id, { name: "ETL", budget: 100, order: 1 })
        yield* TestClock.adjust("1 minute")
        const usageGroups = yield* UsageGroups.UsageGroups
        const renamed = yield* usageGroups.updateGroup(alice, organization.id, set.id, group.id, patchInput({ name: "ETL jobs" }), Precondition.none)
        expect(renamed).toMatchObject({ name: "ETL jobs", budget: 100, order: 1, filter_expression: group.filter_expression })
        expect(renamed.etag).not.toBe(group.etag)
        expect(renamed.updated_at.epochMillis).toBe(group.updated_at.epochMillis + 60_000)

        const unlimited = yield* usageGroups.updateGroup(alice, organization.id, set.id, group.id, patchInput({
          budget: null,
          filter_expression_json: JSON.stringify(equals("warehouse_size", "X-Large"))
        }), Precondition.none)
        expect(unlimited).toMatchObject({ name: "ETL jobs", budget: null, order: 1 })
        expect(unlimited.filter_expression.filters[0]).toMatchObject({ field: { path: ["warehouse_size"] }, value: "X-Large" })
        expect((yield* usageGroups.allGroups(organization.id, set.id))[0]).toEqual(unlimited)

        const unchanged = yield* usageGroups.updateGroup(alice, organization.id, set.id, group.id, patchInput({ name: "ETL jobs" }), Precondition.none)
        expect(unchanged).toEqual(unlimited)
        const records = (yield* usageRecords(organization.id)).filter((r) => r.operation === "update")
        expect(records.map((r) => [r.old_values?.["name"], r.new_values?.["name"], r.new_values?.["budget"]])).toEqual([
          ["ETL", "ETL jobs", 100],
          ["ETL jobs", "ETL jobs", null]
        ])
      }))

    it.effect("If-Match: a stale ETag is PreconditionFailed and changes nothing; the current one or * succeeds", () =>
      Effect.gen(function*() {
        const organization = yield* freshOrganization
        const set = yield* createSet(organization.id)
        const group = yield* createGroup(organization.id, set.id, { name: "ETL" })
        const usageGroups = yield* UsageGroups.UsageGroups
        // As the edge sends it: the optional header, parsed.
        const update = (name: string, header: string) =>
          Effect.flatMap(Precondition.optional(header), (precondition) =>
            usageGroups.updateGroup(alice, organization.id, set.id, group.id, patchInput({ name }), precondition))
        const first = yield* update("First", group.etag)
        expect(yield* Effect.flip(update("Stale", group.etag))).toMatchObject({ _tag: "PreconditionFailed" })
        expect(yield* Effect.flip(update("Weak", `W/${first.etag}`))).toMatchObject({ _tag: "PreconditionFailed" })
        expect(yield* Effect.flip(update("Garbled", "abc"))).toMatchObject({
          _tag: "ValidationFailed",
          details: [{ field: "header.if-match" }]
        })
        expect((yield* update("Any", "*")).name).toBe("Any")
        expect((yield* usageGroups.allGroups(organization.id, set.id))[0]!.name).toBe("Any")
        expect((yield* usageRecords(organization.id)).filter((r) => r.operation === "update")).toHaveLength(2)
      }))

    it.effect("deletes a group, optionally on If-Match, and audits its last values", () =>
      Effect.gen(function*() {
        const organization = yield* freshOrganization
        const set = yield* createSet(organization.id)
        const group = yield* createGroup(organization.id, set.id, { name: "ETL", budget: 5 })
        const usageGroups = yield* UsageGroups.UsageGroups
        const stale = yield* Effect.flip(usageGroups.deleteGroup(alice, organization.id, set.id, group.id, ifMatch("\"stale\"")))
        expect(stale._tag).toBe("PreconditionFailed")
        yield* usageGroups.deleteGroup(alice, organization.id, set.id, group.id, ifMatch(group.etag))
        expect(yield* usageGroups.allGroups(organization.id, set.id)).toEqual([])
        expect((yield* Effect.flip(usageGroups.deleteGroup(alice, organization.id, set.id, group.id, Precondition.none)))._tag).toBe("NotFound")
        const [, , deleted] = yield* usageRecords(organization.id)
        expect(deleted).toMatchObject({
          table_name: "usage_groups",
          operation: "delete",
          record_id: group.id,
          old_values: { name: "ETL", budget: 5, usage_group_set_id: set.id },
          new_values: null
        })
      }))

    it.effect("a group is NotFound through another set or another organization", () =>
      Effect.gen(function*() {
        const [organization, other] = [yield* freshOrganization, yield* freshOrganization]
        const set = yield* createSet(organization.id)
        const otherSet = yield* createSet(organization.id, "Other")
        const group = yield* createGroup(organization.id, set.id, { name: "ETL" })
        const usageGroups = yield* UsageGroups.UsageGroups
        const rename = patchInput({ name: "x" })
        expect((yield* Effect.flip(usageGroups.updateGroup(alice, organization.id, otherSet.id, group.id, rename, Precondition.none)))._tag)
          .toBe("NotFound")
        expect((yield* Effect.flip(usageGroups.updateGroup(alice, other.id, set.id, group.id, rename, Precondition.none)))._tag).toBe("NotFound")
        expect((yield* Effect.flip(usageGroups.deleteGroup(alice, organization.id, otherSet.id, group.id, Precondition.none)))._tag)
          .toBe("NotFound")
        expect((yield* Effect.flip(createGroup(other.id, set.id, { name: "x" })))._tag).toBe("NotFound")
      }))

    it.effect("of concurrent updates made with one ETag exactly one succeeds", () =>
      Effect.gen(function*() {
        const organization = yield* freshOrganization
        const set = yield* createSet(organization.id)
        const group = yield* createGroup(organization.id, set.id, { name: "ETL" })
        const usageGroups = yield* UsageGroups.UsageGroups
        const outcomes = yield* Effect.all(
          Array.from({ length: 6 }, (_, i) =>
            Effect.either(
              usageGroups.updateGroup(alice, organization.id, set.id, group.id, patchInput({ name: `n${i}` }), ifMatch(group.etag))
            )),
          { concurrency: "unbounded" }
        )
        expect(outcomes.filter(Either.isRight)).toHaveLength(1)
        expect(outcomes.filter(Either.isLeft).map((o) => o.left._tag)).toEqual(Array(5).fill("PreconditionFailed"))
      }))
  })
}
