/**
 * The benchmark's data. The organization, its admin API key and the usage groups go through
 * core's services, as in production. The bulk (a million audit records, 100,000 insights, a
 * million usage records) would take many minutes one service call at a time, so it is inserted
 * straight through the store's `SqlClient` (see BulkInsert), after checking that what the
 * generators build decodes as `AuditRecord`s, `Insight`s and `UsageRecord`s. Both stores are
 * ANALYZEd afterwards, as a database in use would be.
 */
import { Actor, ApiKeys, Audit, Core, Insight, InsightETag, Installation, Organizations, PageToken, Team, Teams, Usage, UsageGroups } from "@costline/core"
import type { Ids } from "@costline/core"
import { PgStore } from "@costline/store-pg"
import { SqliteStore } from "@costline/store-sqlite"
import { SqlClient } from "@effect/sql/SqlClient"
import { Effect, Layer, Schema } from "effect"
import { randomUUID } from "node:crypto"
import { insertMany } from "./BulkInsert.js"
import type { StoreTarget } from "./Stores.js"
import { USAGE_MONTH, usageGroupInputs, usageRecord, usageRow } from "./UsageData.js"

export const ORGANIZATION = "bench" as Ids.OrganizationId

const START = Date.parse("2024-01-01T00:00:00Z")
const RESOURCES = ["insights", "teams", "api_keys", "usage_group_sets", "ticket_links"] as const
const OPERATIONS = ["create", "update", "delete"] as const

/** The n-th audit record: a resource change by an API key, with small old and new values. */
export const auditRecord = (n: number) => ({
  id: randomUUID(),
  organization_id: ORGANIZATION,
  changed_at: new Date(START + n * 1000).toISOString(),
  kind: "resource" as const,
  resource: RESOURCES[n % RESOURCES.length]!,
  event_type: null,
  table_name: RESOURCES[n % RESOURCES.length]!,
  record_id: randomUUID(),
  operation: OPERATIONS[n % OPERATIONS.length]!,
  status: "success" as const,
  changed_by: `key_${n % 7}`,
  changed_by_type: "api_key" as const,
  old_values: n % 3 === 0 ? null : { status: "open", assignee: null },
  new_values: n % 3 === 2 ? null : { status: "in_progress", assignee: `user${n % 50}@bench.example` },
  request_id: n % 2 === 0 ? null : `req_${n}`
})

/** The store's row for a record: JSON columns as text, as `AuditRepo.append` writes them. */
const auditRow = (record: ReturnType<typeof auditRecord>) => ({
  ...record,
  old_values: record.old_values === null ? null : JSON.stringify(record.old_values),
  new_values: record.new_values === null ? null : JSON.stringify(record.new_values)
})

const STATUSES = ["open", "in_progress", "resolved", "dismissed"] as const
const SEVERITIES = ["low", "medium", "high"] as const

/** The n-th insight: a quarter in each status, seven warehouses, an ETag as `Insights` computes it. */
export const insight = (n: number) => {
  const at = new Date(START + n * 1000).toISOString()
  const editable = {
    status: STATUSES[n % STATUSES.length]!,
    assignee: n % 5 === 0 ? `user${n % 50}@bench.example` : null,
    title: `Warehouse WH_${n} is idle`,
    description: "Suspend it sooner.",
    severity: SEVERITIES[n % SEVERITIES.length]!,
    is_current: true,
    resource_type: "warehouse",
    resource_id: `WH_${n}`,
    dw_id: `dw-${n % 7}`,
    connection_id: null,
    potential_savings: n % 500,
    details: { idle_hours: n % 24 }
  }
  return {
    id: randomUUID(),
    insight_type: "warehouse_idle" as const,
    ...editable,
    create_time: at,
    update_time: at,
    first_viewed_by: null,
    last_viewed_by: null,
    first_viewed_at: null,
    last_viewed_at: null,
    view_count: 0,
    etag: InsightETag.forInsight(editable)
  }
}

const storeLayer = (target: StoreTarget): Layer.Layer<Core.Repositories | SqlClient, unknown> =>
  target.kind === "sqlite"
    ? SqliteStore.layer({ filename: target.filename })
    : PgStore.layer({ url: target.url })

/** An insight's row: JSON as text, the boolean as the store binds it. */
const insightRow = (boolean: (value: boolean) => boolean | number) => (value: ReturnType<typeof insight>) => ({
  ...value,
  organization_id: ORGANIZATION,
  is_current: boolean(value.is_current),
  details: JSON.stringify(value.details)
})

/**
 * A page token resuming the export at `depth` (0..1) of the organization's log, as the server
 * would have issued it after the record there: the store's own position, signed alike.
 */
const auditTokenAt = (depth: number) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient
    const [{ count }] = yield* sql<{ count: number | string }>`SELECT count(*) AS count FROM audit_records WHERE organization_id = ${ORGANIZATION}`
    const offset = Math.floor(Number(count) * depth)
    const [{ position }] = yield* sql.onDialectOrElse({
      pg: () => sql<{ position: string }>`SELECT stamp::text AS position FROM audit_records
        WHERE organization_id = ${ORGANIZATION} AND stamp IS NOT NULL ORDER BY stamp LIMIT 1 OFFSET ${offset}`,
      orElse: () => sql<{ position: string }>`SELECT CAST(seq AS TEXT) AS position FROM audit_records
        WHERE organization_id = ${ORGANIZATION} ORDER BY seq LIMIT 1 OFFSET ${offset}`
    })
    const secret = yield* (yield* Installation.InstallationRepo).cursorSecret
    return PageToken.encode(secret, { tenant: ORGANIZATION, binding: "asc", position })
  })

/** The usage group set `usage_attribution` reads: 50 groups made through core, as a client would. */
const usageGroupSet = Effect.gen(function*() {
  const groups = yield* UsageGroups.UsageGroups
  const set = yield* groups.createSet(Actor.Actor.system(), ORGANIZATION, Schema.decodeUnknownSync(Usage.CreateUsageGroupSet)({ name: "Bench" }))
  for (const input of usageGroupInputs()) {
    yield* groups.createGroup(Actor.Actor.system(), ORGANIZATION, set.id, Schema.decodeUnknownSync(Usage.CreateUsageGroup)(input))
  }
  return set.id
})

export interface SeedSizes {
  readonly auditRecords: number
  readonly insights: number
  /** 0: none, and no usage group set either. */
  readonly usageRecords: number
}

export interface Seeded {
  /** The admin API key's token. */
  readonly token: string
  /** Resumes the audit export 90% of the way through the log. */
  readonly deepAuditToken: string
  /** Ids of seeded insights, to read and update. */
  readonly insightIds: ReadonlyArray<string>
  /** A team made through core, for the in-process write scenario of another resource (`team_patch`). */
  readonly teamId: string
  /** The set whose attribution `usage_attribution` asks for, and the records of its month. */
  readonly usage: { readonly setId: string; readonly month: string; readonly records: number } | undefined
}

/**
 * Migrates the store, creates the organization and its key, then the audit records, insights,
 * and (when asked for) usage records and a set of usage groups.
 */
export const seed = (target: StoreTarget, sizes: SeedSizes): Promise<Seeded> =>
  Effect.gen(function*() {
    yield* (yield* Organizations.Organizations).create({ id: ORGANIZATION, name: "Benchmark" })
    const { token } = yield* (yield* ApiKeys.ApiKeys).create(Actor.Actor.system(), ORGANIZATION, {
      name: "bench",
      access: "admin",
      scopes: ["*"]
    })
    yield* insertMany({ table: "audit_records", count: sizes.auditRecords, make: auditRecord, schema: Audit.AuditRecord, toRow: auditRow })
    // better-sqlite3 cannot bind booleans.
    const boolean = target.kind === "sqlite" ? (value: boolean) => (value ? 1 : 0) : (value: boolean) => value
    yield* insertMany({ table: "insights", count: sizes.insights, make: insight, schema: Insight.Insight, toRow: insightRow(boolean) })
    const usageSetId = sizes.usageRecords > 0 ? yield* usageGroupSet : undefined
    yield* insertMany({
      table: "usage_records",
      count: sizes.usageRecords,
      make: usageRecord,
      schema: Usage.UsageRecord,
      toRow: usageRow(ORGANIZATION)
    })
    const team = yield* (yield* Teams.Teams).create(Actor.Actor.system(), ORGANIZATION, Schema.decodeUnknownSync(Team.CreateTeam)({ name: "Bench" }))
    const sql = yield* SqlClient
    yield* sql`ANALYZE`
    const ids = yield* sql<{ id: string }>`SELECT id FROM insights WHERE organization_id = ${ORGANIZATION} ORDER BY id LIMIT 1000`
    return {
      token,
      deepAuditToken: yield* auditTokenAt(0.9),
      insightIds: ids.map((row) => row.id),
      teamId: team.id,
      usage: usageSetId === undefined ? undefined : { setId: usageSetId, month: USAGE_MONTH, records: sizes.usageRecords }
    }
  }).pipe(Effect.provide(Core.layer.pipe(Layer.provideMerge(storeLayer(target)))), Effect.scoped, Effect.runPromise)
