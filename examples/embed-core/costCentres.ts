/**
 * A Node service that uses costline's core directly, with no HTTP in between: it sets up cost
 * centres as a usage group set, imports a month of warehouse usage, attributes it to the groups,
 * publishes a report of its own (audited in costline's log), and reads the log back.
 *
 * The program names only core's services; which store it runs on is decided where it is run
 * (`coreOn`), so the same code runs on SQLite and on Postgres.
 */
import { Actor, Attribution, AuditLog, Core, Organizations, Usage, UsageFilter, UsageGroups, UsageImport, UsageMonth } from "@costline/core"
import type { Audit } from "@costline/core"
import type { SqlClient } from "@effect/sql"
import { Effect, Layer, Schema, Stream } from "effect"
import { createReportsTable, publishReport } from "./reports.js"

/**
 * Every core service over `store`, and what the store provides beside them: its Transactor, and
 * its SqlClient for the service's own tables.
 */
export const coreOn = <E>(store: Layer.Layer<Core.Repositories | SqlClient.SqlClient, E>) =>
  Core.layer.pipe(Layer.provideMerge(store))

/** Who this service is in the audit log. */
const actor = new Actor.Actor({ changedBy: "finops-service", changedByType: "system", requestId: null })

export const MONTH = Schema.decodeSync(UsageMonth.Month)("2024-05")

/** A month of usage as a usage file (JSON Lines), the form `costline usage import` takes too. */
export const USAGE = [
  { start_time: "2024-05-02T09:00:00Z", credits: 60, warehouse_name: "ANALYTICS_WH", user_name: "ana" },
  { start_time: "2024-05-03T10:30:00Z", credits: 45, warehouse_name: "ANALYTICS_WH", user_name: "ben" },
  { start_time: "2024-05-10T01:00:00Z", credits: 30, warehouse_name: "LOADING_WH", query_tag: "dbt" },
  { start_time: "2024-05-20T08:15:00Z", credits: 12.5, warehouse_name: "ADHOC_WH", user_name: "cy" },
  // No group's filter matches this one: it is reported as unattributed.
  { start_time: "2024-05-25T12:00:00Z", credits: 7, warehouse_name: "ADHOC_WH" },
  // April: outside the month the report covers.
  { start_time: "2024-04-30T23:59:59Z", credits: 99, warehouse_name: "ANALYTICS_WH" }
].map((row) => JSON.stringify(row)).join("\n")

export interface CostCentreReport {
  readonly groups: ReadonlyArray<{
    readonly name: string
    readonly spent: number
    readonly budget: number | null
    readonly status: string
    readonly records: number
  }>
  readonly unattributed: { readonly credits: number; readonly records: number }
  /** The organization's audit log, oldest first. */
  readonly auditLog: ReadonlyArray<Audit.AuditRecord>
}

/** Sets up the cost centres of a new organization and reports on its month of usage. */
export const costCentreReport = (organizationId: string) =>
  Effect.gen(function*() {
    const organizations = yield* Organizations.Organizations
    const usageGroups = yield* UsageGroups.UsageGroups
    const organization = yield* organizations.create({ id: organizationId, name: "Acme" })

    // Groups are matched in `order`: the first whose filter matches a usage record gets it.
    const set = yield* usageGroups.createSet(actor, organization.id, new Usage.CreateUsageGroupSet({ name: "Cost centres" }))
    const group = (name: string, order: number, budget: number | null, filter: Usage.FilterExpression) =>
      usageGroups.createGroup(actor, organization.id, set.id, new Usage.CreateUsageGroup({ name, order, budget, filter_expression: filter }))
    yield* group("Analytics", 0, 100, UsageFilter.and(UsageFilter.leaf(["warehouse_name"], "=", "ANALYTICS_WH")))
    yield* group("Data engineering", 1, 50, UsageFilter.or(
      UsageFilter.leaf(["warehouse_name"], "starts_with", "LOADING"),
      UsageFilter.leaf(["query_tag"], "=", "dbt")
    ))
    yield* group("Everyone else", 2, null, UsageFilter.and(UsageFilter.leaf(["user_name"], "is_null", false)))

    // Imports are all or nothing: one bad row and nothing is stored.
    yield* Effect.flatMap(UsageImport.UsageImport, (usage) =>
      usage.run(organization.id, { format: "jsonl", open: () => Stream.make(USAGE) }))
    const attribution = yield* Effect.flatMap(Attribution.Attribution, (attribution) => attribution.run(organization.id, set.id, MONTH))

    // The service's own resource, audited beside costline's changes (see reports.ts).
    yield* createReportsTable
    yield* publishReport(actor, organization.id, { id: `cost-centres-${MONTH}`, title: `Cost centres, ${MONTH}` })
    const audit = yield* AuditLog.AuditLog
    const auditLog = yield* audit.export(organization.id, { filters: {}, order: "asc", pageToken: undefined, maxResults: 500 })

    return {
      groups: attribution.groups.map(({ budget, group, records, spent, status }) => ({
        name: group.name,
        spent,
        budget,
        status,
        records
      })),
      unattributed: attribution.unattributed,
      auditLog: auditLog.items
    } satisfies CostCentreReport
  })
