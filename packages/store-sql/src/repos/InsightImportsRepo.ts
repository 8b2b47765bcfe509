/**
 * Staged insight imports on SQL (see core's InsightImport and migration 1500_insight_imports).
 * Staging writes multi-row INSERTs into tables no reader looks at; publishing is three set-based
 * statements (mark the conflicts, append the audit records in line order, upsert the insights),
 * so its transaction is short whatever the file's size, a few milliseconds per thousand insights.
 */
import { InsightImportsRepo } from "@costline/core"
import type { Errors, Ids } from "@costline/core"
import { Effect, Layer, Option } from "effect"
import { isoText } from "../Columns.js"
import { AUDIT_COLUMNS, auditRow } from "./AuditRepo.js"
import { COLUMNS as INSIGHT_COLUMNS, newInsightRow, toInsight } from "./InsightsRepo.js"
import { RepoContext } from "./RepoContext.js"
import { leaveLockFree as lockGap, ROWS_PER_DISCARD } from "./Staging.js"

/** Rows per INSERT: at about 20 parameters a row, far below both databases' parameter limits. */
const ROWS_PER_INSERT = 500

/** The columns of `insights` a staged row carries: all but the views, which publishing never writes. */
const STAGED_COLUMNS = "id, organization_id, insight_type, resource_id, title, description, severity, is_current, " +
  "resource_type, dw_id, connection_id, potential_savings, details, status, assignee, create_time, update_time, etag"

/** What an update of an existing insight writes: its detector-owned content, ETag and update time. */
const REPLACED_COLUMNS = [
  "title",
  "description",
  "severity",
  "is_current",
  "resource_type",
  "dw_id",
  "connection_id",
  "potential_savings",
  "details",
  "etag",
  "update_time"
]

const chunks = <A>(items: ReadonlyArray<A>, size: number): ReadonlyArray<ReadonlyArray<A>> =>
  Array.from({ length: Math.ceil(items.length / size) }, (_, i) => items.slice(i * size, (i + 1) * size))

export const make = Effect.gen(function*() {
  const { dialect, errors, sql, trustedReader, write } = yield* RepoContext
  const insights = trustedReader(toInsight)
  const staged = trustedReader((row) => ({ insight: toInsight(row), base: Option.fromNullable(row.base_etag as string | null) }))
  const leaveLockFree = lockGap(sql)
  const yes = dialect.boolean(true)
  const no = dialect.boolean(false)
  // Views are not staged: a staged state never carries them (and publishing never writes them).
  const noViews = sql.literal(
    "NULL AS first_viewed_by, NULL AS last_viewed_by, NULL AS first_viewed_at, NULL AS last_viewed_at, 0 AS view_count"
  )

  const stagedRow = (organizationId: Ids.OrganizationId, importId: string, { base, insight }: InsightImportsRepo.StagedInsight) => ({
    import_id: importId,
    base_etag: Option.getOrNull(base),
    ...newInsightRow(dialect.boolean, organizationId, insight)
  })

  /** One batch of deletions in its own transaction; true when it deleted something. */
  const discardBatch = (table: "staged_insights" | "staged_insight_audit", key: string, importId: string) =>
    write(
      sql`DELETE FROM ${sql(table)} WHERE import_id = ${importId} AND (${sql.literal(key)}) IN (
            SELECT ${sql.literal(key)} FROM ${sql(table)} WHERE import_id = ${importId} LIMIT ${ROWS_PER_DISCARD})
          RETURNING import_id`.pipe(Effect.map((rows) => rows.length > 0), errors.orUnavailable)
    )

  const discardAll = (
    table: "staged_insights" | "staged_insight_audit",
    key: string,
    importId: string
  ): Effect.Effect<void, Errors.StoreUnavailable> =>
    Effect.flatMap(discardBatch(table, key, importId), (more) =>
      more ? Effect.zipRight(leaveLockFree, discardAll(table, key, importId)) : Effect.void)

  return InsightImportsRepo.InsightImportsRepo.of({
    begin: (organizationId, importId, now) =>
      write(
        sql`INSERT INTO insight_imports (id, organization_id, started_at, heartbeat_at)
            VALUES (${importId}, ${organizationId}, ${isoText(now)}, ${isoText(now)})`.pipe(errors.orUnavailable)
      ),

    current: (organizationId, importId, keys) =>
      Effect.gen(function*() {
        // By type, then resource: each lookup a range of the tables' (…, insight_type, resource_id) keys.
        const byType = new Map<string, Set<string>>()
        for (const key of keys) {
          const resources = byType.get(key.insight_type) ?? new Set<string>()
          resources.add(key.resource_id)
          byType.set(key.insight_type, resources)
        }
        const found: Array<InsightImportsRepo.CurrentInsight> = []
        for (const [type, resources] of byType) {
          const resourceIds = [...resources]
          const mine = yield* staged.all(
            sql`SELECT ${sql.literal(STAGED_COLUMNS)}, ${noViews}, base_etag FROM staged_insights
                WHERE import_id = ${importId} AND insight_type = ${type} AND resource_id IN ${sql.in(resourceIds)}`
          )
          const stagedIds = new Set(mine.map(({ insight }) => insight.resource_id))
          const unstaged = resourceIds.filter((id) => !stagedIds.has(id))
          const published = unstaged.length === 0 ? [] : yield* insights.all(
            sql`SELECT ${sql.literal(INSIGHT_COLUMNS)} FROM insights
                WHERE organization_id = ${organizationId} AND insight_type = ${type} AND resource_id IN ${sql.in(unstaged)}`
          )
          for (const { base, insight } of mine) found.push({ insight, staged: Option.some(base) })
          for (const insight of published) found.push({ insight, staged: Option.none() })
        }
        return found
      }),

    stage: (organizationId, importId, staging, audit, now) =>
      write(Effect.gen(function*() {
        const replaced = sql.literal(
          [...REPLACED_COLUMNS, "id", "status", "assignee", "create_time"].map((column) => `${column} = excluded.${column}`)
            .join(", ")
        )
        for (const rows of chunks(staging, ROWS_PER_INSERT)) {
          yield* sql`INSERT INTO staged_insights ${sql.insert(rows.map((row) => stagedRow(organizationId, importId, row)))}
                     ON CONFLICT (import_id, insight_type, resource_id) DO UPDATE SET ${replaced}`
        }
        const [last] = yield* sql<{ readonly line: unknown }>`
          SELECT coalesce(max(line), 0) AS line FROM staged_insight_audit WHERE import_id = ${importId}`
        const first = Number(last?.line ?? 0) + 1
        for (const [i, records] of chunks(audit, ROWS_PER_INSERT).entries()) {
          yield* sql`INSERT INTO staged_insight_audit ${
            sql.insert(records.map((record, j) => ({
              import_id: importId,
              line: first + i * ROWS_PER_INSERT + j,
              ...auditRow(record)
            })))
          }`
        }
        yield* sql`UPDATE insight_imports SET heartbeat_at = ${isoText(now)} WHERE id = ${importId}`
      }).pipe(errors.orUnavailable)).pipe(Effect.zipLeft(leaveLockFree)),

    conflicts: (importId) =>
      write(
        staged.all(
          sql`UPDATE staged_insights SET conflict = ${yes}
              WHERE import_id = ${importId} AND base_etag IS DISTINCT FROM (
                SELECT i.etag FROM insights AS i
                WHERE i.organization_id = staged_insights.organization_id
                  AND i.insight_type = staged_insights.insight_type AND i.resource_id = staged_insights.resource_id)
              RETURNING ${sql.literal(STAGED_COLUMNS)}, ${noViews}, base_etag`
        )
      ),

    publish: (importId) =>
      write(Effect.gen(function*() {
        const audit = sql.literal(AUDIT_COLUMNS)
        yield* sql`
          INSERT INTO audit_records (${audit})
          SELECT ${audit} FROM staged_insight_audit
          WHERE import_id = ${importId}
            AND record_id NOT IN (SELECT id FROM staged_insights WHERE import_id = ${importId} AND conflict = ${yes})
          ORDER BY line`
        const columns = sql.literal(STAGED_COLUMNS)
        yield* sql`
          INSERT INTO insights (${columns})
          SELECT ${columns} FROM staged_insights WHERE import_id = ${importId} AND conflict = ${no}
          ON CONFLICT (organization_id, insight_type, resource_id) DO UPDATE SET ${
          sql.literal(REPLACED_COLUMNS.map((column) => `${column} = excluded.${column}`).join(", "))
        }`
      }).pipe(errors.orUnavailable)),

    discard: (importId) =>
      Effect.gen(function*() {
        yield* discardAll("staged_insight_audit", "line", importId)
        yield* discardAll("staged_insights", "insight_type, resource_id", importId)
        yield* write(sql`DELETE FROM insight_imports WHERE id = ${importId}`.pipe(errors.orUnavailable))
      }),

    staleImports: (before) =>
      sql<{ readonly id: string }>`SELECT id FROM insight_imports WHERE heartbeat_at < ${isoText(before)}`.pipe(
        Effect.map((rows) => rows.map((row) => row.id)),
        errors.orUnavailable
      )
  })
})

export const layer = Layer.effect(InsightImportsRepo.InsightImportsRepo, make)
