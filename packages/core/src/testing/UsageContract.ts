/**
 * Contract: usage group sets and groups (unique names, precedence-ordered pages, merge patches
 * and ETags, audit records), usage records (exact round trip, keyset scans) and what is built on
 * them (imports, attribution).
 */
import { describe, expect, type Vitest } from "@effect/vitest"
import { Duration, Effect, Either, Schema, Stream, TestClock } from "effect"
import type { AuditRecord } from "../audit/Domain.js"
import { Actor } from "../shared/Actor.js"
import type { OrganizationId } from "../shared/Ids.js"
import { Transactor } from "../shared/Transactor.js"
import * as Precondition from "../shared/Precondition.js"
import { CreateTeam } from "../teams/Domain.js"
import { Teams } from "../teams/Teams.js"
import { Attribution } from "../usage/AttributionService.js"
import { BudgetAlerts } from "../usage/BudgetAlerts.js"
import {
  CreateUsageGroup,
  CreateUsageGroupSet,
  PatchUsageGroup,
  type UsageGroup,
  type UsageGroupSetId,
  type UsageRecord
} from "../usage/Domain.js"
import { Month } from "../usage/Month.js"
import { UsageRecordsRepo } from "../usage/Repo.js"
import { UsageGroups } from "../usage/UsageGroups.js"
import * as UsageImportService from "../usage/UsageImport.js"
import { UsageImport } from "../usage/UsageImport.js"
import { type ContractServices, drainExport, freshOrganization, ifMatch, userActor } from "./Fixtures.js"

const alice = userActor("alice@example.com")

/** A filter as clients send it: one leaf `<dimension> = <value>`. */
export const equals = (dimension: string, value: string | number | boolean) => ({
  operator: "and",
  filters: [{ field: { path: [dimension] }, operator: "=", value }]
})

const setInput = (input: Record<string, unknown>) => Schema.decodeUnknownSync(CreateUsageGroupSet)(input)
export const groupInput = (input: Record<string, unknown>) => Schema.decodeUnknownSync(CreateUsageGroup)(input)
const patchInput = (input: Record<string, unknown>) => Schema.decodeUnknownSync(PatchUsageGroup)(input)

export const createSet = (organizationId: OrganizationId, name = "Cost centers", extra: Record<string, unknown> = {}) =>
  Effect.flatMap(UsageGroups, (groups) => groups.createSet(alice, organizationId, setInput({ name, ...extra })))

/** A group filtering `warehouse_name = ETL` unless `input` names a filter. */
export const createGroup = (organizationId: OrganizationId, setId: UsageGroupSetId, input: Record<string, unknown>) => {
  const filter = "filter_expression" in input || "filter_expression_json" in input
    ? {}
    : { filter_expression: equals("warehouse_name", "ETL") }
  return Effect.flatMap(UsageGroups, (groups) => groups.createGroup(alice, organizationId, setId, groupInput({ ...filter, ...input })))
}

const usageRecords = (organizationId: OrganizationId) =>
  Effect.gen(function*() {
    const { records } = yield* drainExport(organizationId)
    return records.filter((record) => record.resource === "usage_group_sets")
  })

const summary = (record: AuditRecord) => [record.table_name, record.operation, record.record_id]

/** Every record the scan hands over, and the sizes of its batches. */
export const scanAll = (organizationId: OrganizationId, month: string) =>
  Effect.gen(function*() {
    const repo = yield* UsageRecordsRepo
    const records: Array<UsageRecord> = []
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

export const usage = (start: string, credits: number, dimensions: Partial<UsageRecord> = {}): UsageRecord => ({
  start_time: new Date(start),
  credits,
  ...dimensions
})

const lines = (...rows: Array<unknown>) => rows.map((row) => (typeof row === "string" ? row : JSON.stringify(row))).join("\n")

/** A source whose text comes in small chunks, to cross line boundaries. */
const source = (text: string | (() => string)) => ({
  format: "jsonl" as const,
  open: () => Stream.fromIterable((typeof text === "string" ? text : text()).match(/[\s\S]{1,7}/g) ?? [])
})

export const usageContract = (it: Vitest.MethodsNonLive<ContractServices>) => {
  describe("usage group sets", () => {
    it.effect("reads back a created set, trimmed, and audits it", () =>
      Effect.gen(function*() {
        const organization = yield* freshOrganization
        const set = yield* createSet(organization.id, "  Cost centers ", { order: 3, dw_account_uuid: "ignored" })
        expect(set).toMatchObject({ name: "Cost centers", order: 3, team_id: null })
        expect(yield* (yield* UsageGroups).getSet(organization.id, set.id)).toEqual(set)
        const [record] = yield* usageRecords(organization.id)
        expect(record).toMatchObject({
          resource: "usage_group_sets",
          table_name: "usage_group_sets",
          operation: "create",
          record_id: set.id,
          changed_by: "alice@example.com",
          new_values: { name: "Cost centers", order: 3, team_id: null }
        })
      }))

    it.effect("names are unique per organization ignoring case; the refusal writes nothing", () =>
      Effect.gen(function*() {
        const [organization, other] = [yield* freshOrganization, yield* freshOrganization]
        yield* createSet(organization.id, "Cost Centers")
        const duplicate = yield* Effect.flip(createSet(organization.id, " cost centers"))
        expect(duplicate).toMatchObject({ _tag: "AlreadyExists", message: "a usage group set named 'cost centers' already exists" })
        yield* createSet(other.id, "COST CENTERS")
        expect((yield* usageRecords(organization.id)).map(summary)).toHaveLength(1)
      }))

    it.effect("a team-scoped set needs a team of its own organization", () =>
      Effect.gen(function*() {
        const [organization, other] = [yield* freshOrganization, yield* freshOrganization]
        const teams = yield* Teams
        const team = yield* teams.create(Actor.system(), organization.id, new CreateTeam({ name: "Data", is_all_users: false, default_member_role: "viewer" }))
        const foreign = yield* teams.create(Actor.system(), other.id, new CreateTeam({ name: "Data", is_all_users: false, default_member_role: "viewer" }))
        expect((yield* createSet(organization.id, "By team", { team_id: team.id })).team_id).toBe(team.id)
        const refused = yield* Effect.flip(createSet(organization.id, "Foreign", { team_id: foreign.id }))
        expect(refused).toMatchObject({ _tag: "ValidationFailed", details: [{ field: "team_id", issue: "not_found" }] })
        expect((yield* usageRecords(organization.id)).map(summary)).toHaveLength(1)
      }))

    it.effect("a set is NotFound in another organization", () =>
      Effect.gen(function*() {
        const [organization, other] = [yield* freshOrganization, yield* freshOrganization]
        const set = yield* createSet(organization.id)
        expect(yield* Effect.flip((yield* UsageGroups).getSet(other.id, set.id))).toMatchObject({ _tag: "NotFound" })
      }))
  })

  describe("usage groups", () => {
    it.effect("stores the normalised filter of either form, with the set's name, and audits it", () =>
      Effect.gen(function*() {
        const organization = yield* freshOrganization
        const set = yield* createSet(organization.id)
        const fromObject = yield* createGroup(organization.id, set.id, { name: " ETL ", budget: 120.5, order: 2 })
        const fromJson = yield* createGroup(organization.id, set.id, {
          name: "BI",
          filter_expression_json: JSON.stringify(equals("warehouse_name", "BI"))
        })
        const [first, second] = yield* (yield* UsageGroups).allGroups(organization.id, set.id)
        expect(second).toEqual(fromObject)
        expect(first).toEqual(fromJson)
        expect(fromObject).toMatchObject({
          name: "ETL",
          budget: 120.5,
          order: 2,
          usage_group_set_id: set.id,
          usage_group_set_name: "Cost centers",
          filter_expression: {
            component_type: "Resource Filter",
            operator: "and",
            not: false,
            filters: [{ field: { field: "warehouse_name", path: ["warehouse_name"] }, operator: "=", value: "ETL", not: false }]
          }
        })
        const records = yield* usageRecords(organization.id)
        expect(records.map(summary).slice(1)).toEqual([
          ["usage_groups", "create", fromObject.id],
          ["usage_groups", "create", fromJson.id]
        ])
        expect(records[1]!.new_values).toEqual({
          usage_group_set_id: set.id,
          name: "ETL",
          budget: 120.5,
          order: 2,
          filter_expression: fromObject.filter_expression
        })
      }))

    it.effect("validates filters against the catalogue of the set's scope and stores nothing invalid", () =>
      Effect.gen(function*() {
        const organization = yield* freshOrganization
        const team = yield* (yield* Teams).create(
          Actor.system(),
          organization.id,
          new CreateTeam({ name: "Data", is_all_users: false, default_member_role: "viewer" })
        )
        const teamSet = yield* createSet(organization.id, "Team", { team_id: team.id })
        const organizationSet = yield* createSet(organization.id, "Organization")
        const byAccount = { filter_expression: equals("account_name", "prod") }
        yield* createGroup(organization.id, organizationSet.id, { name: "Prod", ...byAccount })
        const refused = yield* Effect.flip(createGroup(organization.id, teamSet.id, { name: "Prod", ...byAccount }))
        expect(refused).toMatchObject({
          _tag: "ValidationFailed",
          details: [{ field: "filter_expression.filters[0].field.path", issue: "unknown" }]
        })
        expect(yield* (yield* UsageGroups).allGroups(organization.id, teamSet.id)).toEqual([])
      }))

    it.effect("lists groups in precedence order (order, created_at, id), page by page", () =>
      Effect.gen(function*() {
        const organization = yield* freshOrganization
        const set = yield* createSet(organization.id)
        const other = yield* createSet(organization.id, "Other")
        const created: Array<UsageGroup> = []
        for (const order of [2, 0, 1, 0, 2, 0]) {
          yield* TestClock.adjust("1 second")
          created.push(yield* createGroup(organization.id, set.id, { name: `g${created.length}`, order }))
        }
        const usageGroups = yield* UsageGroups
        const expected = [created[1], created[3], created[5], created[2], created[0], created[4]].map((g) => g!.id)
        expect((yield* usageGroups.allGroups(organization.id, set.id)).map((g) => g.id)).toEqual(expected)

        const seen: Array<string> = []
        const sizes: Array<number> = []
        let pageToken: string | undefined
        do {
          const page = yield* usageGroups.listGroups(organization.id, set.id, { pageToken, maxResults: 4 })
          sizes.push(page.items.length)
          seen.push(...page.items.map((g) => g.id))
          pageToken = page.page_token ?? undefined
        } while (pageToken !== undefined)
        expect(seen).toEqual(expected)
        expect(sizes).toEqual([4, 2])

        const first = yield* usageGroups.listGroups(organization.id, set.id, { pageToken: undefined, maxResults: 1 })
        const elsewhere = yield* Effect.flip(
          usageGroups.listGroups(organization.id, other.id, { pageToken: first.page_token!, maxResults: 1 })
        )
        expect(elsewhere).toMatchObject({ _tag: "InvalidPageToken", message: "page_token was issued for another list" })
        const exact = yield* usageGroups.listGroups(organization.id, set.id, { pageToken: undefined, maxResults: 6 })
        expect(exact.page_token).toBeNull()
        const badSize = yield* Effect.flip(usageGroups.listGroups(organization.id, set.id, { pageToken: undefined, maxResults: 501 }))
        expect(badSize).toMatchObject({ _tag: "ValidationFailed", details: [{ field: "query.max_results" }] })
      }))

    it.effect("a patch changes only what it names; a null budget removes the limit; the ETag follows", () =>
      Effect.gen(function*() {
        const organization = yield* freshOrganization
        const set = yield* createSet(organization.id)
        const group = yield* createGroup(organization.id, set.id, { name: "ETL", budget: 100, order: 1 })
        yield* TestClock.adjust("1 minute")
        const usageGroups = yield* UsageGroups
        const renamed = yield* usageGroups.updateGroup(alice, organization.id, set.id, group.id, patchInput({ name: "ETL jobs" }), Precondition.none)
        expect(renamed).toMatchObject({ name: "ETL jobs", budget: 100, order: 1, filter_expression: group.filter_expression })
        expect(renamed.etag).not.toBe(group.etag)
        expect(renamed.updated_at.epochMillis).toBe(group.updated_at.epochMillis + 60_000)

        const unlimited = yield* usageGroups.updateGroup(alice, organization.id, set.id, group.id, patchInput({
          budget: null,
          filter_expression_json: JSON.stringify(equals("warehouse_size", "X-Large"))
        }), Precondition.none)
        expect(unlimited).toMatchObject({ name: "ETL jobs", budget: null, order: 1 })
        expect(unlimited.filter_expression.filters[0]).toMatchObject({ field: { path: ["warehouse_size"] }, value: "X-Large" })
        expect((yield* usageGroups.allGroups(organization.id, set.id))[0]).toEqual(unlimited)

        const unchanged = yield* usageGroups.updateGroup(alice, organization.id, set.id, group.id, patchInput({ name: "ETL jobs" }), Precondition.none)
        expect(unchanged).toEqual(unlimited)
        const records = (yield* usageRecords(organization.id)).filter((r) => r.operation === "update")
        expect(records.map((r) => [r.old_values?.["name"], r.new_values?.["name"], r.new_values?.["budget"]])).toEqual([
          ["ETL", "ETL jobs", 100],
          ["ETL jobs", "ETL jobs", null]
        ])
      }))

    it.effect("If-Match: a stale ETag is PreconditionFailed and changes nothing; the current one or * succeeds", () =>
      Effect.gen(function*() {
        const organization = yield* freshOrganization
        const set = yield* createSet(organization.id)
        const group = yield* createGroup(organization.id, set.id, { name: "ETL" })
        const usageGroups = yield* UsageGroups
        // As the edge sends it: the optional header, parsed.
        const update = (name: string, header: string) =>
          Effect.flatMap(Precondition.optional(header), (precondition) =>
            usageGroups.updateGroup(alice, organization.id, set.id, group.id, patchInput({ name }), precondition))
        const first = yield* update("First", group.etag)
        expect(yield* Effect.flip(update("Stale", group.etag))).toMatchObject({ _tag: "PreconditionFailed" })
        expect(yield* Effect.flip(update("Weak", `W/${first.etag}`))).toMatchObject({ _tag: "PreconditionFailed" })
        expect(yield* Effect.flip(update("Garbled", "abc"))).toMatchObject({
          _tag: "ValidationFailed",
          details: [{ field: "header.if-match" }]
        })
        expect((yield* update("Any", "*")).name).toBe("Any")
        expect((yield* usageGroups.allGroups(organization.id, set.id))[0]!.name).toBe("Any")
        expect((yield* usageRecords(organization.id)).filter((r) => r.operation === "update")).toHaveLength(2)
      }))

    it.effect("deletes a group, optionally on If-Match, and audits its last values", () =>
      Effect.gen(function*() {
        const organization = yield* freshOrganization
        const set = yield* createSet(organization.id)
        const group = yield* createGroup(organization.id, set.id, { name: "ETL", budget: 5 })
        const usageGroups = yield* UsageGroups
        const stale = yield* Effect.flip(usageGroups.deleteGroup(alice, organization.id, set.id, group.id, ifMatch("\"stale\"")))
        expect(stale._tag).toBe("PreconditionFailed")
        yield* usageGroups.deleteGroup(alice, organization.id, set.id, group.id, ifMatch(group.etag))
        expect(yield* usageGroups.allGroups(organization.id, set.id)).toEqual([])
        expect((yield* Effect.flip(usageGroups.deleteGroup(alice, organization.id, set.id, group.id, Precondition.none)))._tag).toBe("NotFound")
        const [, , deleted] = yield* usageRecords(organization.id)
        expect(deleted).toMatchObject({
          table_name: "usage_groups",
          operation: "delete",
          record_id: group.id,
          old_values: { name: "ETL", budget: 5, usage_group_set_id: set.id },
          new_values: null
        })
      }))

    it.effect("a group is NotFound through another set or another organization", () =>
      Effect.gen(function*() {
        const [organization, other] = [yield* freshOrganization, yield* freshOrganization]
        const set = yield* createSet(organization.id)
        const otherSet = yield* createSet(organization.id, "Other")
        const group = yield* createGroup(organization.id, set.id, { name: "ETL" })
        const usageGroups = yield* UsageGroups
        const rename = patchInput({ name: "x" })
        expect((yield* Effect.flip(usageGroups.updateGroup(alice, organization.id, otherSet.id, group.id, rename, Precondition.none)))._tag)
          .toBe("NotFound")
        expect((yield* Effect.flip(usageGroups.updateGroup(alice, other.id, set.id, group.id, rename, Precondition.none)))._tag).toBe("NotFound")
        expect((yield* Effect.flip(usageGroups.deleteGroup(alice, organization.id, otherSet.id, group.id, Precondition.none)))._tag)
          .toBe("NotFound")
        expect((yield* Effect.flip(createGroup(other.id, set.id, { name: "x" })))._tag).toBe("NotFound")
      }))

    it.effect("of concurrent updates made with one ETag exactly one succeeds", () =>
      Effect.gen(function*() {
        const organization = yield* freshOrganization
        const set = yield* createSet(organization.id)
        const group = yield* createGroup(organization.id, set.id, { name: "ETL" })
        const usageGroups = yield* UsageGroups
        const outcomes = yield* Effect.all(
          Array.from({ length: 6 }, (_, i) =>
            Effect.either(
              usageGroups.updateGroup(alice, organization.id, set.id, group.id, patchInput({ name: `n${i}` }), ifMatch(group.etag))
            )),
          { concurrency: "unbounded" }
        )
        expect(outcomes.filter(Either.isRight)).toHaveLength(1)
        expect(outcomes.filter(Either.isLeft).map((o) => o.left._tag)).toEqual(Array(5).fill("PreconditionFailed"))
      }))
  })

  describe("usage records", () => {
    it.effect("round-trip every dimension exactly; a scan sees only its organization and month", () =>
      Effect.gen(function*() {
        const [organization, other] = [yield* freshOrganization, yield* freshOrganization]
        const repo = yield* UsageRecordsRepo
        const full = usage("2024-05-31T23:59:59.999Z", 1.25, {
          warehouse_name: "ETL",
          warehouse_size: "X-Small",
          user_name: "loader",
          role_name: "SYSADMIN",
          database_name: "RAW",
          schema_name: "PUBLIC",
          query_tag: "nightly",
          query_type: "INSERT",
          service_type: "WAREHOUSE_METERING",
          is_serverless: false,
          execution_time_ms: 1500,
          bytes_scanned: 1e12,
          accessed_databases: ["RAW", "STAGE"],
          tags: { team: "data", "cost center": "42" },
          dbt_project: "core",
          dbt_model: "orders",
          account_name: "prod",
          region: "eu-west-1",
          dw_organization_name: "acme"
        })
        const sparse = usage("2024-05-01T00:00:00.000Z", 0, { is_serverless: true, user_name: null })
        yield* repo.insert(organization.id, [
          full,
          sparse,
          usage("2024-04-30T23:59:59.999Z", 7),
          usage("2024-06-01T00:00:00.000Z", 8)
        ])
        yield* repo.insert(other.id, [usage("2024-05-10T00:00:00Z", 9)])
        const { records } = yield* scanAll(organization.id, "2024-05")
        const byTime = [...records].sort((a, b) => a.start_time.getTime() - b.start_time.getTime())
        expect(byTime).toEqual([{ start_time: sparse.start_time, credits: 0, is_serverless: true }, full])
        expect((yield* scanAll(organization.id, "2024-03")).records).toEqual([])
      }))

    it.effect("a scan of more rows than a batch reads each of them once, also among other months' rows", () =>
      Effect.gen(function*() {
        const organization = yield* freshOrganization
        const repo = yield* UsageRecordsRepo
        // Months interleaved, as a file that mixes them writes them: the month's rows are spread.
        const rows = Array.from({ length: 16_000 }, (_, i) =>
          usage(`2024-0${5 + (i % 3)}-0${1 + (i % 7)}T00:00:00Z`, 1, { query_tag: String(i) }))
        yield* repo.insert(organization.id, rows)
        const { batches, records } = yield* scanAll(organization.id, "2024-05")
        const expected = rows.filter((row) => row.start_time.getUTCMonth() === 4).map((row) => row.query_tag)
        expect(batches.length).toBeGreaterThan(1)
        expect(Math.max(...batches)).toBeLessThan(expected.length)
        expect(records.map((r) => r.query_tag).sort()).toEqual(expected.sort())
      }))

    it.effect("a scan inside a caller's transaction sees its uncommitted rows, and may run again after a failed batch", () =>
      Effect.gen(function*() {
        const organization = yield* freshOrganization
        const repo = yield* UsageRecordsRepo
        yield* (yield* Transactor).withTransaction(Effect.gen(function*() {
          yield* repo.insert(organization.id, [usage("2024-05-02T00:00:00Z", 2), usage("2024-05-03T00:00:00Z", 3)])
          const month = { organizationId: organization.id, from: new Date("2024-05-01T00:00:00Z"), to: new Date("2024-06-01T00:00:00Z") }
          const failed = yield* Effect.flip(repo.scan(month, () => Effect.fail("stop" as const)))
          expect(failed).toBe("stop")
          const { records } = yield* scanAll(organization.id, "2024-05")
          expect(records.map((r) => r.credits).sort()).toEqual([2, 3])
        }))
      }))
  })

  describe("usage import", () => {
    it.effect("imports a valid file whole, whatever its chunking and blank lines", () =>
      Effect.gen(function*() {
        const organization = yield* freshOrganization
        const text = lines(
          { start_time: "2024-05-02T10:00:00Z", credits: 2, warehouse_name: "ETL" },
          "",
          { start_time: "2024-05-03 11:00:00 +0200", credits: 3.5, tags: { team: "bi" } }
        )
        const summary = yield* (yield* UsageImport).run(organization.id, source(text))
        expect(summary).toEqual({ rows: 2 })
        const { records } = yield* scanAll(organization.id, "2024-05")
        expect(records).toEqual([
          usage("2024-05-02T10:00:00Z", 2, { warehouse_name: "ETL" }),
          usage("2024-05-03T09:00:00Z", 3.5, { tags: { team: "bi" } })
        ])
      }))

    it.effect("a file with bad rows imports nothing and names each bad line", () =>
      Effect.gen(function*() {
        const organization = yield* freshOrganization
        const text = lines(
          { start_time: "2024-05-02T10:00:00Z", credits: 2 },
          { start_time: "yesterday", credits: 1 },
          "{not json",
          { start_time: "2024-05-02T10:00:00Z", credits: 1, warehouse: "ETL" }
        )
        const failure = yield* Effect.flip((yield* UsageImport).run(organization.id, source(text)))
        expect(failure).toMatchObject({ _tag: "ValidationFailed" })
        if (failure._tag !== "ValidationFailed") return
        expect(failure.details.map((d) => d.field)).toEqual(["line 2", "line 3", "line 4"])
        expect(failure.message).toMatch(/^3 invalid rows of 4, nothing was imported: line 2: start_time: must be an ISO 8601/)
        expect(failure.details[2]!.message).toMatch(/^unknown column 'warehouse'/)
        expect((yield* scanAll(organization.id, "2024-05")).records).toEqual([])
      }))

    it.effect("a file that changes between validating and inserting imports nothing", () =>
      Effect.gen(function*() {
        const organization = yield* freshOrganization
        const versions = [
          lines({ start_time: "2024-05-02T10:00:00Z", credits: 2 }, { start_time: "2024-05-02T10:00:00Z", credits: 2 }),
          lines({ start_time: "2024-05-02T10:00:00Z", credits: 2 }, { start_time: "later", credits: 2 })
        ]
        const failure = yield* Effect.flip((yield* UsageImport).run(organization.id, source(() => versions.shift()!)))
        expect(failure).toMatchObject({ _tag: "ValidationFailed", details: [{ field: "file", issue: "changed" }] })
        expect((yield* scanAll(organization.id, "2024-05")).records).toEqual([])
      }))

    it.effect("rows are staged in batches of BATCH_SIZE, unseen until the last batch is published", () =>
      Effect.gen(function*() {
        const organization = yield* freshOrganization
        const total = 2 * UsageImportService.BATCH_SIZE + 1
        const row = { start_time: "2024-05-02T10:00:00Z", credits: 1 }
        const staged: Array<number> = []
        const seenWhileStaging: Array<number> = []
        // The store's repository, watched: what each staged batch holds, and what a scan sees meanwhile.
        const watched = Effect.map(UsageRecordsRepo, (repo) =>
          UsageRecordsRepo.of({
            ...repo,
            stage: (organizationId, importId, records, now) =>
              Effect.gen(function*() {
                const seen = yield* Effect.provideService(scanAll(organization.id, "2024-05"), UsageRecordsRepo, repo)
                seenWhileStaging.push(seen.records.length)
                staged.push(records.length)
                yield* repo.stage(organizationId, importId, records, now)
              })
          }))
        const importer = yield* Effect.provideServiceEffect(UsageImportService.make, UsageRecordsRepo, watched)
        const summary = yield* importer.run(organization.id, source(lines(...Array.from({ length: total }, () => row))))
        expect(summary).toEqual({ rows: total })
        expect(staged).toEqual([UsageImportService.BATCH_SIZE, UsageImportService.BATCH_SIZE, 1])
        expect(seenWhileStaging).toEqual([0, 0, 0])
        expect((yield* scanAll(organization.id, "2024-05")).records).toHaveLength(total)
      }))

    it.effect("a bad row late in the file, found after batches were staged, leaves nothing behind", () =>
      Effect.gen(function*() {
        const organization = yield* freshOrganization
        const good = Array.from({ length: 2 * UsageImportService.BATCH_SIZE + 10 }, () => ({
          start_time: "2024-05-02T10:00:00Z",
          credits: 1
        }))
        const versions = [lines(...good, good[0]), lines(...good, { start_time: "later", credits: 1 })]
        const failure = yield* Effect.flip((yield* UsageImport).run(organization.id, source(() => versions.shift()!)))
        expect(failure).toMatchObject({ _tag: "ValidationFailed", details: [{ field: "file", issue: "changed" }] })
        expect((yield* scanAll(organization.id, "2024-05")).records).toEqual([])
        // The staged rows and the import itself are gone, not merely hidden.
        expect(yield* (yield* UsageRecordsRepo).staleImports(new Date("2999-01-01T00:00:00Z"))).toEqual([])
      }))

    it.effect("an import left unpublished by a dead process is discarded by the next import once stale", () =>
      Effect.gen(function*() {
        const organization = yield* freshOrganization
        const repo = yield* UsageRecordsRepo
        const startedAt = new Date("2024-06-01T00:00:00Z")
        yield* repo.beginImport(organization.id, "dead-import", startedAt)
        yield* repo.stage(organization.id, "dead-import", [usage("2024-05-02T10:00:00Z", 7)], startedAt)
        expect((yield* scanAll(organization.id, "2024-05")).records).toEqual([])
        expect(yield* repo.staleImports(new Date("2024-06-01T00:00:01Z"))).toContain("dead-import")

        yield* TestClock.setTime(startedAt.getTime() + Duration.toMillis(UsageImportService.STALE_AFTER) + 1)
        yield* (yield* UsageImport).run(organization.id, source(lines({ start_time: "2024-05-03T10:00:00Z", credits: 1 })))
        expect(yield* repo.staleImports(new Date("2999-01-01T00:00:00Z"))).not.toContain("dead-import")
        // Published later by mistake, it would show nothing: its rows were deleted.
        yield* repo.publish("dead-import")
        expect((yield* scanAll(organization.id, "2024-05")).records.map((r) => r.credits)).toEqual([1])
      }))

    it.effect("a scan that began before an import was published does not see it", () =>
      Effect.gen(function*() {
        const organization = yield* freshOrganization
        const repo = yield* UsageRecordsRepo
        const now = new Date("2024-06-01T00:00:00Z")
        yield* repo.insert(organization.id, [usage("2024-05-01T00:00:00Z", 1)])
        yield* repo.beginImport(organization.id, "racing-import", now)
        yield* repo.stage(organization.id, "racing-import", [usage("2024-05-02T00:00:00Z", 2)], now)
        const seen: Array<number> = []
        yield* repo.scan(
          { organizationId: organization.id, from: new Date("2024-05-01T00:00:00Z"), to: new Date("2024-06-01T00:00:00Z") },
          (records) => Effect.zipRight(repo.publish("racing-import"), Effect.sync(() => seen.push(...records.map((r) => r.credits))))
        )
        expect(seen).toEqual([1])
        expect((yield* scanAll(organization.id, "2024-05")).records.map((r) => r.credits).sort()).toEqual([1, 2])
      }))

    it.effect("an unknown organization is NotFound before the file is read", () =>
      Effect.gen(function*() {
        const opened: Array<number> = []
        const failure = yield* Effect.flip(
          (yield* UsageImport).run("org-that-does-not-exist" as OrganizationId, {
            format: "jsonl",
            open: () => Stream.fromEffect(Effect.sync(() => opened.push(1)).pipe(Effect.as("")))
          })
        )
        expect(failure._tag).toBe("NotFound")
        expect(opened).toEqual([])
      }))
  })

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
        yield* (yield* UsageRecordsRepo).insert(organization.id, [
          usage("2024-05-01T00:00:00Z", 6, { warehouse_name: "ETL", warehouse_size: "Large" }),
          usage("2024-05-20T00:00:00Z", 6, { warehouse_name: "ETL" }),
          usage("2024-05-21T00:00:00Z", 85, { warehouse_name: "BI", warehouse_size: "Large" }),
          usage("2024-05-22T00:00:00Z", 1.5, { warehouse_name: "ML" }),
          usage("2024-06-01T00:00:00Z", 1000, { warehouse_name: "ETL" })
        ])
        const report = yield* (yield* Attribution).run(organization.id, set.id, Month.make("2024-05"))
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
        const repo = yield* UsageRecordsRepo
        yield* repo.insert(organization.id, [
          usage("2024-05-01T00:00:00Z", 11, { warehouse_name: "ETL" }),
          usage("2024-05-01T00:00:00Z", 9, { warehouse_name: "BI" })
        ])
        const raise = Effect.flatMap(BudgetAlerts, (alerts) =>
          Effect.map(
            alerts.raise(alice, organization.id, set.id, Month.make("2024-05")),
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
        const failure = yield* Effect.flip((yield* Attribution).run(other.id, set.id, Month.make("2024-05")))
        expect(failure._tag).toBe("NotFound")
      }))
  })
}
