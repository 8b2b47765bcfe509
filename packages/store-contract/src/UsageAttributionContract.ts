/**
 * Contract: attribution of a month's usage records to a set's groups by precedence, and the
 * budget_exceeded insights raised for groups over budget.
 */
import { describe, expect, type Vitest } from "@effect/vitest"
import { Effect, TestClock } from "effect"
import { Attribution, BudgetAlerts, UsageMonth, UsageRepo } from "@costline/core"
import { type ContractServices, drainExport, freshOrganization } from "./Fixtures.js"
import { alice, createGroup, createSet, equals, usage } from "./UsageFixtures.js"

export const usageAttributionContract = (it: Vitest.MethodsNonLive<ContractServices>) => {
  describe("attribution", () => {
    it.effect("attributes a month's usage by precedence, with budget status per group", () =>
      Effect.gen(function*() {
        const organization = yield* freshOrganization
        const set = yield* createSet(organization.id)
        const etl = yield* createGroup(organization.id, set.id, { name: "ETL", order: 1, budget: 10 })
        yield* TestClock.adjust("1 second")
        const everything = yield* createGroup(organization.id, set.id, {
          name: "Large warehouses",
          order: 2,
          budget: 100,
          filter_expression: { operator: "or", filters: [equals("warehouse_size", "Large"), equals("warehouse_name", "ETL")] }
        })
        const idle = yield* createGroup(organization.id, set.id, { name: "Idle", order: 3, filter_expression: equals("warehouse_name", "none") })
        yield* (yield* UsageRepo.UsageRecordsRepo).insert(organization.id, [
          usage("2024-05-01T00:00:00Z", 6, { warehouse_name: "ETL", warehouse_size: "Large" }),
          usage("2024-05-20T00:00:00Z", 6, { warehouse_name: "ETL" }),
          usage("2024-05-21T00:00:00Z", 85, { warehouse_name: "BI", warehouse_size: "Large" }),
          usage("2024-05-22T00:00:00Z", 1.5, { warehouse_name: "ML" }),
          usage("2024-06-01T00:00:00Z", 1000, { warehouse_name: "ETL" })
        ])
        const report = yield* (yield* Attribution.Attribution).run(organization.id, set.id, UsageMonth.Month.make("2024-05"))
        expect(report.set).toEqual(set)
        expect(report.groups.map(({ group, ...rest }) => [group.id, rest])).toEqual([
          [etl.id, { records: 2, spent: 12, budget: 10, remaining: -2, status: "over_budget" }],
          [everything.id, { records: 1, spent: 85, budget: 100, remaining: 15, status: "at_risk" }],
          [idle.id, { records: 0, spent: 0, budget: null, remaining: null, status: "no_budget" }]
        ])
        expect(report.unattributed).toEqual({ credits: 1.5, records: 1 })
      }))

    it.effect("raises one budget_exceeded insight per group and month over budget, updated in place later", () =>
      Effect.gen(function*() {
        const organization = yield* freshOrganization
        const set = yield* createSet(organization.id)
        const etl = yield* createGroup(organization.id, set.id, { name: "ETL", budget: 10 })
        yield* createGroup(organization.id, set.id, { name: "BI", budget: 10, filter_expression: equals("warehouse_name", "BI") })
        const repo = yield* UsageRepo.UsageRecordsRepo
        yield* repo.insert(organization.id, [
          usage("2024-05-01T00:00:00Z", 11, { warehouse_name: "ETL" }),
          usage("2024-05-01T00:00:00Z", 9, { warehouse_name: "BI" })
        ])
        const raise = Effect.flatMap(BudgetAlerts.BudgetAlerts, (alerts) =>
          Effect.map(
            alerts.raise(alice, organization.id, set.id, UsageMonth.Month.make("2024-05")),
            (run) => run.alerts.map((alert) => alert.result)
          ))
        const [created] = yield* raise
        expect(created?._tag).toBe("Created")
        expect(created?.insight).toMatchObject({
          insight_type: "budget_exceeded",
          resource_type: "usage_group",
          resource_id: `${etl.id}/2024-05`,
          severity: "medium",
          status: "open",
          potential_savings: 1,
          details: { usage_group_set_id: set.id, usage_group_id: etl.id, month: "2024-05", spent: 11, budget: 10 }
        })
        expect((yield* raise).map((result) => result._tag)).toEqual(["Unchanged"])
        yield* repo.insert(organization.id, [usage("2024-05-02T00:00:00Z", 4, { warehouse_name: "ETL" })])
        const [updated] = yield* raise
        expect(updated).toMatchObject({ _tag: "Updated", insight: { id: created!.insight.id, severity: "high" } })
        const insightRecords = (yield* drainExport(organization.id)).records.filter((r) => r.resource === "insights")
        expect(insightRecords.map((r) => r.operation)).toEqual(["create", "update"])
      }))

    it.effect("an unknown set is NotFound", () =>
      Effect.gen(function*() {
        const [organization, other] = [yield* freshOrganization, yield* freshOrganization]
        const set = yield* createSet(organization.id)
        const failure = yield* Effect.flip((yield* Attribution.Attribution).run(other.id, set.id, UsageMonth.Month.make("2024-05")))
        expect(failure._tag).toBe("NotFound")
      }))
  })
}
