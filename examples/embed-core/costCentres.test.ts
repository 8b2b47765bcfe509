/** The same program, the same results, on SQLite and on Postgres: only the store layer differs. */
import { Actor, AuditLog } from "@costline/core"
import type { Core, Ids } from "@costline/core"
import { PgStore } from "@costline/store-pg"
import { SqliteStore } from "@costline/store-sqlite"
import type { SqlClient } from "@effect/sql"
import { Effect, type Layer } from "effect"
import { describe, expect, it } from "vitest"
import { useFreshDatabase } from "../../test-support/postgres/database.js"
import { coreOn, costCentreReport } from "./costCentres.js"
import { countReports, publishReport } from "./reports.js"

const postgresUrl = useFreshDatabase()

const stores: ReadonlyArray<readonly [string, () => Layer.Layer<Core.Repositories | SqlClient.SqlClient, unknown>]> = [
  ["SQLite", () => SqliteStore.layer({ filename: ":memory:" })],
  ["Postgres", () => PgStore.layer({ url: postgresUrl })]
]

describe.each(stores)("embedding core on %s", (_name, store) => {
  const run = (organizationId: string) =>
    Effect.runPromise(costCentreReport(organizationId).pipe(Effect.provide(coreOn(store()))))

  it("attributes the month's usage to the first matching group, with budget states", async () => {
    const report = await run("acme")
    expect(report.groups).toEqual([
      { name: "Analytics", spent: 105, budget: 100, status: "over_budget", records: 2 },
      { name: "Data engineering", spent: 30, budget: 50, status: "on_track", records: 1 },
      { name: "Everyone else", spent: 12.5, budget: null, status: "no_budget", records: 1 }
    ])
    expect(report.unattributed).toEqual({ credits: 7, records: 1 })
  })

  it("audits every change, the service's own beside core's, in the order they were made", async () => {
    const report = await run("acme-audit")
    expect(report.auditLog.map((record) => [record.changed_by, record.table_name, record.operation])).toEqual([
      ["finops-service", "usage_group_sets", "create"],
      ["finops-service", "usage_groups", "create"],
      ["finops-service", "usage_groups", "create"],
      ["finops-service", "usage_groups", "create"],
      ["finops-service", "finops_reports", "create"]
    ])
    expect(report.auditLog.at(-1)).toMatchObject({
      resource: "dashboards",
      record_id: "cost-centres-2024-05",
      new_values: { title: "Cost centres, 2024-05" }
    })
  })

  it("publishes a report and its audit record together, or neither", async () => {
    const outcome = await Effect.runPromise(Effect.gen(function*() {
      const organization = yield* costCentreReport("acme-reports").pipe(Effect.as("acme-reports" as Ids.OrganizationId))
      const again = yield* Effect.flip(publishReport(Actor.Actor.system(), organization, { id: "cost-centres-2024-05", title: "Again" }))
      const audited = yield* Effect.flatMap(AuditLog.AuditLog, (audit) =>
        audit.export(organization, { filters: { table_name_in: ["finops_reports"] }, order: "asc", pageToken: undefined, maxResults: 10 }))
      return { failure: again._tag, reports: yield* countReports(organization), audited: audited.items.length }
    }).pipe(Effect.provide(coreOn(store()))))
    expect(outcome).toEqual({ failure: "AlreadyExists", reports: 1, audited: 1 })
  })
})
