/**
 * Repository level: AuditRepo, InsightsRepo, KeyedUsageRepo and RateLimitRepo, directly, without
 * core's services.
 */
import { describe, expect, type Vitest } from "@effect/vitest"
import { Effect, Option } from "effect"
import { randomUUID } from "node:crypto"
import { Audit, AuditRepo, Gcra, InsightsRepo, InsightUpsert, KeyedUsageRepo, RateLimitRepo, UsageRepo } from "@costline/core"
import type { Ids, Insight } from "@costline/core"
import { type ContractServices, freshOrganization } from "../Fixtures.js"
import { idleWarehouse } from "../InsightFixtures.js"
import { scanAll, usage } from "../UsageFixtures.js"
import { now, uuid } from "./Support.js"

const auditRecord = (organizationId: Ids.OrganizationId, recordId: string) =>
  Effect.map(now, (at) =>
    new Audit.AuditRecord({
      id: uuid<Ids.AuditRecordId>(),
      organization_id: organizationId,
      changed_at: at,
      kind: "resource",
      resource: "dashboards",
      event_type: null,
      table_name: "dashboards",
      record_id: recordId,
      operation: "update",
      status: "success",
      changed_by: "ann@example.com",
      changed_by_type: "user",
      old_values: { name: "before" },
      new_values: { name: "after" },
      request_id: null
    }))

export const recordRepositories = (it: Vitest.MethodsNonLive<ContractServices>) => {
  describe("AuditRepo", () => {
    it.effect("appended records come back in order, after a position, only in their organization", () =>
      Effect.gen(function*() {
        const [organization, other] = [yield* freshOrganization, yield* freshOrganization]
        const repo = yield* AuditRepo.AuditRepo
        const page = (organizationId: Ids.OrganizationId, after: string | undefined) =>
          repo.page({ organizationId, filters: { table_name_in: ["dashboards"] }, order: "asc", after, limit: 10 })
        const [first, second] = [yield* auditRecord(organization.id, "a"), yield* auditRecord(organization.id, "b")]
        yield* repo.append(first)
        yield* repo.append(second)
        const all = yield* page(organization.id, undefined)
        expect(all.map(({ record }) => record)).toEqual([first, second])
        expect((yield* page(organization.id, all[0]!.position)).map(({ record }) => record)).toEqual([second])
        expect(yield* page(organization.id, all[1]!.position)).toEqual([])
        expect(yield* page(other.id, undefined)).toEqual([])
      }))
  })

  describe("InsightsRepo", () => {
    it.effect("an upsert creates, then finds the same key; reads and conditional writes stay in the organization", () =>
      Effect.gen(function*() {
        const [organization, other] = [yield* freshOrganization, yield* freshOrganization]
        const repo = yield* InsightsRepo.InsightsRepo
        const at = yield* now
        const input = idleWarehouse(`WH_${randomUUID()}`)
        const key = { insight_type: input.insight_type, resource_id: input.resource_id }
        const created = yield* repo.upsert(organization.id, key, InsightUpsert.mergeUpsert(input, { id: uuid<Insight.InsightId>(), now: at }))
        expect(created._tag).toBe("Created")
        const insight = created.insight
        expect(yield* repo.findById(organization.id, insight.id)).toEqual(Option.some(insight))
        expect(yield* repo.findById(other.id, insight.id)).toEqual(Option.none())
        expect(yield* repo.findById(organization.id, uuid<Insight.InsightId>())).toEqual(Option.none())
        // The same key again, unchanged: the stored insight, not a second one.
        const again = yield* repo.upsert(organization.id, key, InsightUpsert.mergeUpsert(input, { id: uuid<Insight.InsightId>(), now: at }))
        expect(again).toMatchObject({ _tag: "Unchanged", insight: { id: insight.id } })

        const update = {
          organizationId: organization.id,
          id: insight.id,
          set: { status: "resolved" as const, assignee: "ann@example.com" },
          newEtag: "etag-2",
          updateTime: at
        }
        expect((yield* repo.updateIfEtag({ ...update, expectedEtag: "stale" }))._tag).toBe("Stale")
        expect((yield* repo.updateIfEtag({ ...update, organizationId: other.id, expectedEtag: insight.etag }))._tag).toBe("NotFound")
        expect(yield* repo.findById(organization.id, insight.id)).toEqual(Option.some(insight))
        const updated = yield* repo.updateIfEtag({ ...update, expectedEtag: insight.etag })
        expect(updated).toMatchObject({ _tag: "Updated", insight: { status: "resolved", assignee: "ann@example.com", etag: "etag-2" } })
        const view = { insightId: insight.id, viewer: "bob@example.com", day: "2024-05-01", at }
        expect((yield* repo.recordView({ ...view, organizationId: other.id }))._tag).toBe("NotFound")
        expect(yield* repo.recordView({ ...view, organizationId: organization.id })).toMatchObject({ _tag: "Recorded", counted: true })
      }))
  })

  describe("KeyedUsageRepo", () => {
    it.effect("a published ingestion replaces its keys' records, in its organization only; staged rows are unseen until then", () =>
      Effect.gen(function*() {
        const [organization, other] = [yield* freshOrganization, yield* freshOrganization]
        const repo = yield* KeyedUsageRepo.KeyedUsageRepo
        const staged = (organizationId: typeof organization.id, credits: number) =>
          Effect.gen(function*() {
            const ingestionId = randomUUID()
            yield* repo.begin(organizationId, ingestionId, new Date())
            yield* repo.stage(organizationId, ingestionId, [{ key: "query:1", record: usage("2024-05-02T00:00:00Z", credits) }], new Date())
            yield* repo.seal(organizationId, ingestionId, new Date())
            return ingestionId
          })
        const credits = (organizationId: typeof organization.id) =>
          Effect.map(scanAll(organizationId, "2024-05"), ({ records }) => records.map((record) => record.credits).sort())
        yield* repo.publish(yield* staged(organization.id, 1))
        yield* repo.publish(yield* staged(other.id, 7))
        const pending = yield* staged(organization.id, 2)
        expect(yield* credits(organization.id)).toEqual([1])
        yield* repo.publish(pending)
        expect(yield* credits(organization.id)).toEqual([2])
        expect(yield* credits(other.id)).toEqual([7])
        // Plain usage records beside keyed ones are left alone.
        yield* (yield* UsageRepo.UsageRecordsRepo).insert(organization.id, [usage("2024-05-03T00:00:00Z", 5)])
        yield* repo.publish(yield* staged(organization.id, 3))
        yield* repo.purgeReplaced
        expect(yield* credits(organization.id)).toEqual([3, 5])
      }))
    it.effect("staged values come back exactly: tabs, newlines, backslashes, quotes, \\N, empty text, any Unicode, JSON, numbers", () =>
      Effect.gen(function*() {
        const organization = yield* freshOrganization
        const repo = yield* KeyedUsageRepo.KeyedUsageRepo
        // What a bulk format could misread: its separators, its escape and NULL marker, line ends.
        const tricky = "tab\there, new\nline, cr\r\n, back\\slash, \\N, \\., \"quoted\" 'single', a,b; ünïcødé 漢字 🚀 \u2028 end\\"
        const record = usage("2024-05-02T03:04:05.678Z", 0.1 + 0.2, {
          warehouse_name: tricky,
          warehouse_size: "",
          user_name: "\\N",
          role_name: "\t",
          database_name: "line\n\nbreaks\n",
          schema_name: "NULL",
          query_tag: JSON.stringify({ app: "x\ty", "k\\": ["\n"] }),
          query_type: " leading and trailing spaces ",
          service_type: "WAREHOUSE_METERING",
          is_serverless: false,
          execution_time_ms: 1e-12,
          bytes_scanned: 123456789.123456789,
          accessed_databases: [tricky, ""],
          tags: { [tricky]: tricky, cost_kind: "idle", empty: "" },
          dbt_project: "\\\\server\\share",
          dbt_model: "model\u00a0nbsp",
          account_name: "🚀",
          region: "eu\tcentral",
          dw_organization_name: "\"\""
        })
        const plain = usage("2024-05-03T00:00:00Z", 2.5)
        const ingestionId = randomUUID()
        yield* repo.begin(organization.id, ingestionId, new Date())
        yield* repo.stage(organization.id, ingestionId, [{ key: "query:a\tb\nc\\d", record }, { key: "query:2", record: plain }], new Date())
        yield* repo.seal(organization.id, ingestionId, new Date())
        yield* repo.publish(ingestionId)
        const { records } = yield* scanAll(organization.id, "2024-05")
        expect(records).toEqual([record, plain])
      }))
  })

  describe("RateLimitRepo", () => {
    it.effect("takes a burst per key, then refuses; keys do not share state", () =>
      Effect.gen(function*() {
        const repo = yield* RateLimitRepo.RateLimitRepo
        const rule = Gcra.parameters({ requestsPerSecond: 1, burst: 2 })
        const [key, other] = [`repo-level:${randomUUID()}`, `repo-level:${randomUUID()}`]
        const nowMs = Date.UTC(2024, 4, 1)
        const taken = [yield* repo.take(key, rule, nowMs), yield* repo.take(key, rule, nowMs), yield* repo.take(key, rule, nowMs)]
        expect(taken.map((outcome) => outcome.allowed)).toEqual([true, true, false])
        expect((yield* repo.take(other, rule, nowMs)).allowed).toBe(true)
        expect((yield* repo.take(key, rule, nowMs + 1000)).allowed).toBe(true)
      }))
  })
}
