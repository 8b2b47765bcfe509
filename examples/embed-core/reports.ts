/**
 * The service's own resource, a published report, kept in a table of its own in costline's
 * store. Publishing writes the row and its audit record in one transaction: the report appears
 * in costline's audit export exactly when it exists, never one without the other.
 */
import { AuditLog, Errors, Transactor } from "@costline/core"
import type { Actor, Ids } from "@costline/core"
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/** The service's own migration; portable SQL, so it runs on SQLite and Postgres alike. */
export const createReportsTable = Effect.flatMap(SqlClient.SqlClient, (sql) =>
  sql`CREATE TABLE IF NOT EXISTS finops_reports (
    organization_id TEXT NOT NULL,
    id TEXT NOT NULL,
    title TEXT NOT NULL,
    PRIMARY KEY (organization_id, id)
  )`)

export interface Report {
  readonly id: string
  readonly title: string
}

/** Publishing a report that exists fails with AlreadyExists, and leaves no audit record. */
export const publishReport = (actor: Actor.Actor, organizationId: Ids.OrganizationId, report: Report) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const audit = yield* AuditLog.AuditLog
    const tx = yield* Transactor.Transactor
    yield* tx.withTransaction(Effect.gen(function*() {
      // `recordChecked` validates the names: this resource kind is the host's, not costline's.
      yield* audit.recordChecked(actor, organizationId, {
        target: { resource: "dashboards" },
        table_name: "finops_reports",
        record_id: report.id,
        operation: "create",
        new_values: { title: report.title }
      })
      const inserted = yield* sql`INSERT INTO finops_reports (organization_id, id, title)
                                  VALUES (${organizationId}, ${report.id}, ${report.title})
                                  ON CONFLICT DO NOTHING RETURNING id`
      // Failing rolls the transaction back, the audit record with it.
      if (inserted.length === 0) return yield* new Errors.AlreadyExists({ message: `report ${report.id} is already published` })
    }))
  })

export const countReports = (organizationId: Ids.OrganizationId) =>
  Effect.map(
    Effect.flatMap(SqlClient.SqlClient, (sql) =>
      sql<{ readonly id: string }>`SELECT id FROM finops_reports WHERE organization_id = ${organizationId}`),
    (rows) => rows.length
  )
