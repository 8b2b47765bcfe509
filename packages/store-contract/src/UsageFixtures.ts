/**
 * What the usage contracts share: inputs as clients send them, sets and groups made through the
 * service, a full scan of a month's records, and import sources that arrive in small chunks.
 */
import { Effect, Schema, Stream } from "effect"
import { Usage, UsageGroups, UsageRepo } from "@costline/core"
import type { Audit, Ids } from "@costline/core"
import { drainExport, userActor } from "./Fixtures.js"

export const alice = userActor("alice@example.com")

/** A filter as clients send it: one leaf `<dimension> = <value>`. */
export const equals = (dimension: string, value: string | number | boolean) => ({
  operator: "and",
  filters: [{ field: { path: [dimension] }, operator: "=", value }]
})

export const setInput = (input: Record<string, unknown>) => Schema.decodeUnknownSync(Usage.CreateUsageGroupSet)(input)
export const groupInput = (input: Record<string, unknown>) => Schema.decodeUnknownSync(Usage.CreateUsageGroup)(input)
export const patchInput = (input: Record<string, unknown>) => Schema.decodeUnknownSync(Usage.PatchUsageGroup)(input)

export const createSet = (organizationId: Ids.OrganizationId, name = "Cost centers", extra: Record<string, unknown> = {}) =>
  Effect.flatMap(UsageGroups.UsageGroups, (groups) => groups.createSet(alice, organizationId, setInput({ name, ...extra })))

/** A group filtering `warehouse_name = ETL` unless `input` names a filter. */
export const createGroup = (organizationId: Ids.OrganizationId, setId: Usage.UsageGroupSetId, input: Record<string, unknown>) => {
  const filter = "filter_expression" in input || "filter_expression_json" in input
    ? {}
    : { filter_expression: equals("warehouse_name", "ETL") }
  return Effect.flatMap(UsageGroups.UsageGroups, (groups) => groups.createGroup(alice, organizationId, setId, groupInput({ ...filter, ...input })))
}

export const usageRecords = (organizationId: Ids.OrganizationId) =>
  Effect.gen(function*() {
    const { records } = yield* drainExport(organizationId)
    return records.filter((record) => record.resource === "usage_group_sets")
  })

export const summary = (record: Audit.AuditRecord) => [record.table_name, record.operation, record.record_id]

/** Every record the scan hands over, and the sizes of its batches. */
export const scanAll = (organizationId: Ids.OrganizationId, month: string) =>
  Effect.gen(function*() {
    const repo = yield* UsageRepo.UsageRecordsRepo
    const records: Array<Usage.UsageRecord> = []
    const batches: Array<number> = []
    const from = new Date(`${month}-01T00:00:00Z`)
    const to = new Date(Date.UTC(from.getUTCFullYear(), from.getUTCMonth() + 1, 1))
    yield* repo.scan({ organizationId, from, to }, (batch) =>
      Effect.sync(() => {
        batches.push(batch.length)
        records.push(...batch)
      }))
    return { records, batches }
  })

export const usage = (start: string, credits: number, dimensions: Partial<Usage.UsageRecord> = {}): Usage.UsageRecord => ({
  start_time: new Date(start),
  credits,
  ...dimensions
})

export const lines = (...rows: Array<unknown>) => rows.map((row) => (typeof row === "string" ? row : JSON.stringify(row))).join("\n")

/** A source whose text comes in small chunks, to cross line boundaries. */
export const source = (text: string | (() => string)) => ({
  format: "jsonl" as const,
  open: () => Stream.fromIterable((typeof text === "string" ? text : text()).match(/[\s\S]{1,7}/g) ?? [])
})
