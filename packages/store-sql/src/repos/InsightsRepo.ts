/**
 * Insights on SQL. Each rule is one statement or one short transaction, so it holds with many
 * server instances over one database: the ETag compare-and-set is one UPDATE, the once-a-day view
 * rule a unique key on `insight_views`, the upsert a transaction that holds the key's row.
 */
import { Insight, InsightsRepo } from "@costline/core"
import type { Errors, Ids } from "@costline/core"
import { Effect, Layer, Option } from "effect"
import { isoText, jsonText, TrustedColumn, trustedRow } from "../Columns.js"
import { aggregate } from "./InsightAggregate.js"
import { insightFilterConditions } from "./InsightFilters.js"
import type { SqlValue } from "../SqlDialect.js"
import { RepoContext } from "./RepoContext.js"

/** Insight rows are only written here (and by a staged import), from validated insights: read without re-validating. */
export const toInsight = trustedRow(
  Insight.Insight,
  {
    is_current: TrustedColumn.boolean,
    details: TrustedColumn.json,
    create_time: TrustedColumn.dateTime,
    update_time: TrustedColumn.dateTime,
    first_viewed_at: TrustedColumn.nullableDateTime,
    last_viewed_at: TrustedColumn.nullableDateTime,
    view_count: TrustedColumn.integer
  }
)

export const COLUMNS = "id, insight_type, title, description, status, assignee, is_current, severity, resource_type, " +
  "resource_id, dw_id, connection_id, potential_savings, details, create_time, update_time, first_viewed_by, " +
  "last_viewed_by, first_viewed_at, last_viewed_at, view_count, etag"

/** The columns a detector or an import owns. */
export const detectorValues = (boolean: (flag: boolean) => SqlValue, insight: Insight.Insight) => ({
  title: insight.title,
  description: insight.description,
  severity: insight.severity,
  is_current: boolean(insight.is_current),
  resource_type: insight.resource_type,
  dw_id: insight.dw_id,
  connection_id: insight.connection_id,
  potential_savings: insight.potential_savings,
  details: jsonText(insight.details)
})

/** A new insight's row (its views are the columns' defaults: none). */
export const newInsightRow = (boolean: (flag: boolean) => SqlValue, organizationId: Ids.OrganizationId, insight: Insight.Insight) => ({
  id: insight.id,
  organization_id: organizationId,
  insight_type: insight.insight_type,
  resource_id: insight.resource_id,
  ...detectorValues(boolean, insight),
  status: insight.status,
  assignee: insight.assignee,
  create_time: isoText(insight.create_time),
  update_time: isoText(insight.update_time),
  etag: insight.etag
})

export const make = Effect.gen(function*() {
  const { dialect, errors, sql, trustedReader, write } = yield* RepoContext
  const insights = trustedReader(toInsight)
  const columns = sql.literal(COLUMNS)
  // SQLite's BEGIN IMMEDIATE already holds the whole database; Postgres locks the row.
  const lockRow = sql.onDialectOrElse({ pg: () => sql.literal("FOR UPDATE"), orElse: () => sql.literal("") })

  const findByKey = (organizationId: Ids.OrganizationId, key: InsightsRepo.InsightKey) =>
    insights.first(
      sql`SELECT ${columns} FROM insights
          WHERE organization_id = ${organizationId} AND insight_type = ${key.insight_type}
            AND resource_id = ${key.resource_id}
          ${lockRow}`
    )

  /** Inserts unless another transaction created the key first; true when this one did. */
  const insertNew = (organizationId: Ids.OrganizationId, insight: Insight.Insight) =>
    sql`INSERT INTO insights ${sql.insert({ ...newInsightRow(dialect.boolean, organizationId, insight), view_count: insight.view_count })}
    ON CONFLICT (organization_id, insight_type, resource_id) DO NOTHING
    RETURNING id`.pipe(Effect.map((rows) => rows.length > 0), errors.orUnavailable)

  const replaceContent = (organizationId: Ids.OrganizationId, insight: Insight.Insight) =>
    sql`UPDATE insights SET ${
      sql.update({ ...detectorValues(dialect.boolean, insight), etag: insight.etag, update_time: isoText(insight.update_time) })
    }
    WHERE organization_id = ${organizationId} AND id = ${insight.id}`.pipe(errors.orUnavailable)

  const upsert: InsightsRepo.InsightsRepo["Type"]["upsert"] = (organizationId, key, merge) => {
    const apply = (existing: Option.Option<Insight.Insight>): Effect.Effect<InsightsRepo.UpsertResult, Errors.StoreUnavailable> => {
      const merged = merge(existing)
      if (Option.isNone(merged)) {
        return Option.match(existing, {
          onNone: () => Effect.dieMessage("an upsert merge returned nothing for a new insight"),
          onSome: (insight) => Effect.succeed(InsightsRepo.UpsertResult.Unchanged({ insight }))
        })
      }
      const insight = merged.value
      if (Option.isSome(existing)) {
        return Effect.as(replaceContent(organizationId, insight), InsightsRepo.UpsertResult.Updated({ before: existing.value, insight }))
      }
      // When another transaction created the key first, its row is read (and locked) and merged into.
      return Effect.flatMap(insertNew(organizationId, insight), (created) =>
        created
          ? Effect.succeed(InsightsRepo.UpsertResult.Created({ insight }))
          : Effect.flatMap(findByKey(organizationId, key), apply))
    }
    return write(Effect.flatMap(findByKey(organizationId, key), apply))
  }

  const findById = (organizationId: Ids.OrganizationId, id: Insight.Insight["id"]) =>
    insights.first(sql`SELECT ${columns} FROM insights WHERE organization_id = ${organizationId} AND id = ${id}`)

  const lockById = (organizationId: Ids.OrganizationId, id: Insight.Insight["id"]) =>
    insights.first(
      sql`SELECT ${columns} FROM insights WHERE organization_id = ${organizationId} AND id = ${id} ${lockRow}`
    )

  const list: InsightsRepo.InsightsRepo["Type"]["list"] = ({ filters, organizationId, sortBy, sortOrder, window }) => {
    const sortColumn = sql(sortBy)
    const keyset = window.after === undefined
      ? []
      : [sql`(${sortColumn}, id) ${sql.literal(sortOrder === "asc" ? ">" : "<")} (${window.after.at}, ${window.after.id})`]
    const conditions = [
      sql`organization_id = ${organizationId}`,
      ...insightFilterConditions(sql, dialect.boolean, filters),
      ...keyset
    ]
    const direction = sql.literal(sortOrder === "asc" ? "ASC" : "DESC")
    return insights.all(
      sql`SELECT ${columns} FROM insights WHERE ${sql.and(conditions)}
          ORDER BY ${sortColumn} ${direction}, id ${direction}
          LIMIT ${window.limit}`
    )
  }

  const updateIfEtag: InsightsRepo.InsightsRepo["Type"]["updateIfEtag"] = (update) =>
    write(Effect.gen(function*() {
      const updated = yield* insights.first(
        sql`UPDATE insights SET ${
          sql.update({
            status: update.set.status,
            assignee: update.set.assignee,
            etag: update.newEtag,
            update_time: isoText(update.updateTime)
          })
        }
        WHERE organization_id = ${update.organizationId} AND id = ${update.id} AND etag = ${update.expectedEtag}
        RETURNING ${columns}`
      )
      if (Option.isSome(updated)) return InsightsRepo.ConditionalUpdateResult.Updated({ insight: updated.value })
      return Option.match(yield* findById(update.organizationId, update.id), {
        onNone: () => InsightsRepo.ConditionalUpdateResult.NotFound(),
        onSome: (current) => InsightsRepo.ConditionalUpdateResult.Stale({ current })
      })
    }))

  const recordView: InsightsRepo.InsightsRepo["Type"]["recordView"] = (view) =>
    write(Effect.gen(function*() {
      // The unique key (insight, viewer, day) admits one row per day however many calls race.
      const inserted = yield* sql`
        INSERT INTO insight_views (insight_id, viewer, day)
        SELECT id, ${view.viewer}, ${view.day} FROM insights
        WHERE organization_id = ${view.organizationId} AND id = ${view.insightId}
        ON CONFLICT DO NOTHING
        RETURNING insight_id`.pipe(errors.orUnavailable)
      const at = isoText(view.at)
      // A slower call with an earlier time never moves the first view later or the last one back.
      const isFirst = sql`first_viewed_at IS NULL OR first_viewed_at > ${at}`
      const isLast = sql`last_viewed_at IS NULL OR last_viewed_at <= ${at}`
      const updated = yield* sql`
        UPDATE insights SET
          view_count = view_count + ${inserted.length > 0 ? 1 : 0},
          first_viewed_by = CASE WHEN ${isFirst} THEN ${view.viewer} ELSE first_viewed_by END,
          first_viewed_at = CASE WHEN ${isFirst} THEN ${at} ELSE first_viewed_at END,
          last_viewed_by = CASE WHEN ${isLast} THEN ${view.viewer} ELSE last_viewed_by END,
          last_viewed_at = CASE WHEN ${isLast} THEN ${at} ELSE last_viewed_at END
        WHERE organization_id = ${view.organizationId} AND id = ${view.insightId}
        RETURNING id`.pipe(errors.orUnavailable)
      return updated.length === 0 ? InsightsRepo.ViewResult.NotFound() : InsightsRepo.ViewResult.Recorded({ counted: inserted.length > 0 })
    }))

  return InsightsRepo.InsightsRepo.of({
    upsert,
    findById,
    lockById,
    list,
    updateIfEtag,
    recordView,
    aggregate: (organizationId, query) =>
      aggregate(sql, dialect.boolean, organizationId, query).pipe(errors.orUnavailable)
  })
})

export const layer = Layer.effect(InsightsRepo.InsightsRepo, make)
