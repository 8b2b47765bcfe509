/**
 * The audit log on SQL: appended inside the caller's transaction, read in the dialect's commit
 * order (see `AuditOrdering`), filtered by the export's conditions.
 */
import { Audit, AuditRepo } from "@costline/core"
import { Effect, Layer } from "effect"
import { isoText, jsonText, TrustedColumn, trustedRow } from "../Columns.js"
import { auditFilterConditions } from "./AuditFilters.js"
import { RepoContext } from "./RepoContext.js"

/** Audit rows are only ever appended here, from validated records: read without re-validating. */
const toRecord = trustedRow(
  Audit.AuditRecord,
  { changed_at: TrustedColumn.dateTime, old_values: TrustedColumn.json, new_values: TrustedColumn.json }
)

const valuesText = (values: Audit.AuditRecord["old_values"]) => (values === null ? null : jsonText(values))

/** The row of a record as appended (the store adds its order); a staged import writes the same. */
export const auditRow = (record: Audit.AuditRecord) => ({
  id: record.id,
  organization_id: record.organization_id,
  changed_at: isoText(record.changed_at),
  kind: record.kind,
  resource: record.resource,
  event_type: record.event_type,
  table_name: record.table_name,
  record_id: record.record_id,
  operation: record.operation,
  status: record.status,
  changed_by: record.changed_by,
  changed_by_type: record.changed_by_type,
  old_values: valuesText(record.old_values),
  new_values: valuesText(record.new_values),
  request_id: record.request_id
})

/** Its columns, in that order. */
export const AUDIT_COLUMNS = "id, organization_id, changed_at, kind, resource, event_type, table_name, record_id, operation, " +
  "status, changed_by, changed_by_type, old_values, new_values, request_id"

export const make = Effect.gen(function*() {
  const { dialect, errors, execute, sql, write } = yield* RepoContext
  const ordering = dialect.audit
  const columns = sql.literal(AUDIT_COLUMNS)

  return AuditRepo.AuditRepo.of({
    append: (record) =>
      write(
        execute(sql`INSERT INTO audit_records ${sql.insert(auditRow(record))}`).pipe(Effect.asVoid, errors.orUnavailable)
      ),
    page: (query) =>
      Effect.gen(function*() {
        const after = query.after === undefined ? [] : [yield* ordering.after(query.after, query.order, query.organizationId)]
        const conditions = [
          sql`organization_id = ${query.organizationId}`,
          ordering.visible,
          ...after,
          ...auditFilterConditions(sql, query.filters)
        ]
        const rows = yield* sql<Record<string, unknown>>`
          SELECT ${columns}, ${ordering.positionColumns} FROM audit_records
          WHERE ${sql.and(conditions)}
          ORDER BY ${ordering.orderBy(query.order)}
          LIMIT ${query.limit}`.pipe(errors.orUnavailable)
        return rows.map((row) => ({ record: toRecord(row), position: ordering.positionOf(row) }))
      })
  })
})

export const layer = Layer.effect(AuditRepo.AuditRepo, make)
