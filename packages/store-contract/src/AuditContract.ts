/** Contract: the audit export's filters, order, paging and exactly-once page tokens. */
import { describe, expect, type Vitest } from "@effect/vitest"
import { Cause, DateTime, Effect, Exit, TestClock } from "effect"
import { randomUUID } from "node:crypto"
import { Actor, AuditLog, Transactor } from "@costline/core"
import type { Audit, Ids } from "@costline/core"
import { type ContractServices, drainExport, freshOrganization, ids, recordChange, userActor } from "./Fixtures.js"

const dashboardCreated: Audit.AuditEntry = {
  target: { resource: "dashboards" },
  table_name: "dashboards",
  record_id: "dashboard-1",
  operation: "create"
}

/** Appends `count` records to the organization's log, returning them in order. */
const appendRecords = (organizationId: Ids.OrganizationId, count: number) =>
  Effect.forEach(Array.from({ length: count }, (_, index) => `dashboard-${index}`), (recordId) =>
    recordChange(organizationId, recordId))

/**
 * Five records that differ in every filterable field, a minute apart except #3 and #4:
 * #1 Alice creates a dashboard; #2 the ci_bot key fails to update a dashboard widget;
 * #3 the system logs in; #4 Bob deletes a budget; #5 carol_x fails an organization update.
 */
const recordFilterFixture = Effect.gen(function*() {
  const audit = yield* AuditLog.AuditLog
  const organization = yield* freshOrganization
  const start = yield* DateTime.now
  const record = (actor: Actor.Actor, entry: Audit.AuditEntry) => audit.record(actor, organization.id, entry)
  const first = yield* record(userActor("Alice@Example.com"), dashboardCreated)
  yield* TestClock.adjust("1 minute")
  const second = yield* record(
    new Actor.Actor({ changedBy: "api_key:ci_bot", changedByType: "api_key", requestId: "request-2" }),
    {
      target: { resource: "dashboards" },
      table_name: "dashboard_widgets",
      record_id: "widget-1",
      operation: "update",
      status: "failure"
    }
  )
  yield* TestClock.adjust("1 minute")
  const third = yield* record(Actor.Actor.system(), {
    target: { event_type: "session" },
    table_name: "sessions",
    record_id: null,
    operation: "login"
  })
  const fourth = yield* record(userActor("bob@example.com"), {
    target: { resource: "budgets" },
    table_name: "budgets",
    record_id: "budget-1",
    operation: "delete",
    old_values: { amount: 100 }
  })
  yield* TestClock.adjust("1 minute")
  const fifth = yield* record(userActor("carol_x@example.org"), {
    target: { event_type: "organization" },
    table_name: "organizations",
    record_id: organization.id,
    operation: "update",
    status: "failure",
    old_values: { features: { beta: false } },
    new_values: { features: { beta: true } }
  })
  return { organization, start, records: [first, second, third, fourth, fifth] }
})

type Fixture = Effect.Effect.Success<typeof recordFilterFixture>

const minutesAfter = (start: DateTime.Utc, minutes: number) => DateTime.toDateUtc(DateTime.add(start, { minutes }))

/** Each filter of GET /v2/audit-logs, with the fixture records (numbered from 1) it must return. */
const filterCases: ReadonlyArray<{
  readonly name: string
  readonly filters: (fixture: Fixture) => Audit.AuditFilters
  readonly expected: ReadonlyArray<number>
}> = [
  {
    name: "changed_at__gte (inclusive)",
    filters: ({ start }) => ({ changed_at_gte: minutesAfter(start, 2) }),
    expected: [3, 4, 5]
  },
  {
    name: "changed_at__lte (inclusive)",
    filters: ({ start }) => ({ changed_at_lte: minutesAfter(start, 1) }),
    expected: [1, 2]
  },
  {
    name: "changed_at__in_range",
    filters: ({ start }) => ({ changed_at_gte: minutesAfter(start, 1), changed_at_lte: minutesAfter(start, 2) }),
    expected: [2, 3, 4]
  },
  { name: "table_name__in", filters: () => ({ table_name_in: ["dashboards", "budgets"] }), expected: [1, 4] },
  { name: "event_type__in", filters: () => ({ event_type_in: ["session", "invitation"] }), expected: [3] },
  { name: "resource__in", filters: () => ({ resource_in: ["dashboards"] }), expected: [1, 2] },
  { name: "resource__not_in keeps events", filters: () => ({ resource_not_in: ["dashboards"] }), expected: [3, 4, 5] },
  { name: "operation__in", filters: () => ({ operation_in: ["update"] }), expected: [2, 5] },
  { name: "operation__not_in", filters: () => ({ operation_not_in: ["create", "update"] }), expected: [3, 4] },
  { name: "status__in", filters: () => ({ status_in: ["failure"] }), expected: [2, 5] },
  { name: "status__not_in", filters: () => ({ status_not_in: ["failure"] }), expected: [1, 3, 4] },
  {
    name: "id__in (unknown and malformed ids match nothing)",
    filters: ({ records }) => ({ id_in: [records[0]!.id, records[3]!.id, randomUUID(), "not-a-uuid"] }),
    expected: [1, 4]
  },
  { name: "changed_by__ilike ignores case", filters: () => ({ changed_by_ilike: "%@EXAMPLE.COM" }), expected: [1, 4] },
  { name: "changed_by__ilike: _ is any one character", filters: () => ({ changed_by_ilike: "b_b@%" }), expected: [4] },
  { name: "changed_by__ilike: \\_ is a literal underscore", filters: () => ({ changed_by_ilike: "%\\_%" }), expected: [2, 5] },
  {
    name: "changed_by__ilike: a pattern ending in \\ is no error",
    filters: () => ({ changed_by_ilike: "alice\\" }),
    expected: []
  },
  { name: "changed_by__not_ilike", filters: () => ({ changed_by_not_ilike: "%Example%" }), expected: [2, 3] },
  { name: "changed_by__isnull=true", filters: () => ({ changed_by_isnull: true }), expected: [] },
  { name: "changed_by__isnull=false", filters: () => ({ changed_by_isnull: false }), expected: [1, 2, 3, 4, 5] },
  { name: "empty lists do not filter", filters: () => ({ resource_in: [], status_not_in: [] }), expected: [1, 2, 3, 4, 5] },
  {
    name: "filters combine with AND",
    filters: () => ({ resource_in: ["dashboards"], status_in: ["failure"] }),
    expected: [2]
  }
]

const byNumber = (records: ReadonlyArray<Audit.AuditRecord>, numbers: ReadonlyArray<number>) =>
  numbers.map((number) => records[number - 1]!.id)

export const auditContract = (it: Vitest.MethodsNonLive<ContractServices>) => {
  describe("audit export filters", () => {
    for (const { expected, filters, name } of filterCases) {
      it.effect(name, () =>
        Effect.gen(function*() {
          const fixture = yield* recordFilterFixture
          // Two per page, so every filter is also checked across page boundaries.
          const { records } = yield* drainExport(fixture.organization.id, { filters: filters(fixture), maxResults: 2 })
          expect(ids(records)).toEqual(byNumber(fixture.records, expected))
        }))
    }

    it.effect("returns records exactly as they were appended, values and all", () =>
      Effect.gen(function*() {
        const fixture = yield* recordFilterFixture
        const { records } = yield* drainExport(fixture.organization.id)
        expect(records).toEqual(fixture.records)
      }))
  })

  describe("appending", () => {
    // `record` trusts a typed entry once its names pass the check: the check must still hold.
    it.effect("an entry naming an operation its event does not have: record dies, recordChecked fails at that field; nothing is appended", () =>
      Effect.gen(function*() {
        const audit = yield* AuditLog.AuditLog
        const organization = yield* freshOrganization
        const entry: Audit.AuditEntry = { target: { event_type: "session" }, table_name: "sessions", record_id: null, operation: "delete" }
        const exit = yield* Effect.exit(audit.record(Actor.Actor.system(), organization.id, entry))
        expect(Exit.isFailure(exit) && Cause.isDie(exit.cause)).toBe(true)
        const failed = yield* Effect.flip(audit.recordChecked(Actor.Actor.system(), organization.id, entry))
        expect(failed._tag).toBe("ValidationFailed")
        expect(failed._tag === "ValidationFailed" && failed.details.map((issue) => issue.field)).toEqual(["operation"])
        expect((yield* drainExport(organization.id)).records).toEqual([])
      }))
  })

  describe("audit export order and paging", () => {
    it.effect("ascending is the order records were committed in; descending is its reverse", () =>
      Effect.gen(function*() {
        const fixture = yield* recordFilterFixture
        const ascending = yield* drainExport(fixture.organization.id, { order: "asc", maxResults: 2 })
        const descending = yield* drainExport(fixture.organization.id, { order: "desc", maxResults: 2 })
        expect(ids(ascending.records)).toEqual(ids(fixture.records))
        expect(ids(descending.records)).toEqual(ids(fixture.records).reverse())
        expect([ascending.pages, descending.pages]).toEqual([3, 3])
      }))

    it.effect("records sharing one timestamp are delivered exactly once across pages, in both orders", () =>
      Effect.gen(function*() {
        const organization = yield* freshOrganization
        const appended = yield* appendRecords(organization.id, 7)
        expect(new Set(appended.map((record) => DateTime.formatIso(record.changed_at))).size).toBe(1)
        const ascending = yield* drainExport(organization.id, { maxResults: 3 })
        const descending = yield* drainExport(organization.id, { order: "desc", maxResults: 3 })
        expect(ids(ascending.records)).toEqual(ids(appended))
        expect(ids(descending.records)).toEqual(ids(appended).reverse())
        expect(ascending.pages).toBe(3)
      }))

    it.effect("the records of one transaction keep the order they were appended in", () =>
      Effect.gen(function*() {
        const organization = yield* freshOrganization
        const appended = yield* (yield* Transactor.Transactor).withTransaction(appendRecords(organization.id, 12))
        const ascending = yield* drainExport(organization.id, { maxResults: 5 })
        const descending = yield* drainExport(organization.id, { order: "desc", maxResults: 5 })
        expect(ids(ascending.records)).toEqual(ids(appended))
        expect(ids(descending.records)).toEqual(ids(appended).reverse())
      }))

    it.effect("a poller resuming from its stored token receives exactly the records added since", () =>
      Effect.gen(function*() {
        const organization = yield* freshOrganization
        const before = yield* appendRecords(organization.id, 3)
        const firstRun = yield* drainExport(organization.id, { maxResults: 2 })
        expect(ids(firstRun.records)).toEqual(ids(before))

        const after = yield* appendRecords(organization.id, 4)
        const secondRun = yield* drainExport(organization.id, { maxResults: 2, from: firstRun.resumeToken })
        expect(ids(secondRun.records)).toEqual(ids(after))
        const thirdRun = yield* drainExport(organization.id, { maxResults: 2, from: secondRun.resumeToken })
        expect(thirdRun.records).toEqual([])
      }))

    it.effect("an empty log answers an empty page without a token; a page with records always has one", () =>
      Effect.gen(function*() {
        const audit = yield* AuditLog.AuditLog
        const organization = yield* freshOrganization
        const query = { filters: {}, order: "asc", pageToken: undefined, maxResults: 5 } as const
        expect(yield* audit.export(organization.id, query)).toEqual({ items: [], page_token: null })
        yield* appendRecords(organization.id, 2)
        const page = yield* audit.export(organization.id, query)
        expect(page.items).toHaveLength(2)
        expect(page.page_token).toEqual(expect.any(String))
        expect(yield* audit.export(organization.id, { ...query, pageToken: page.page_token! })).toEqual({
          items: [],
          page_token: null
        })
      }))

    it.effect("max_results is 1 to 500", () =>
      Effect.gen(function*() {
        const audit = yield* AuditLog.AuditLog
        const organization = yield* freshOrganization
        yield* appendRecords(organization.id, 3)
        const exportWith = (maxResults: number) =>
          audit.export(organization.id, { filters: {}, order: "asc", pageToken: undefined, maxResults })
        for (const invalid of [0, -1, 501, 1.5]) {
          expect((yield* Effect.flip(exportWith(invalid)))._tag).toBe("ValidationFailed")
        }
        expect((yield* exportWith(1)).items).toHaveLength(1)
        expect((yield* exportWith(500)).items).toHaveLength(3)
      }))

    it.effect("one organization never sees another's records", () =>
      Effect.gen(function*() {
        const [organization, other] = [yield* freshOrganization, yield* freshOrganization]
        const own = yield* appendRecords(organization.id, 2)
        yield* appendRecords(other.id, 2)
        expect(ids((yield* drainExport(organization.id)).records)).toEqual(ids(own))
      }))

    it.effect("a token of another organization or order, or a forged or garbled one, is InvalidPageToken", () =>
      Effect.gen(function*() {
        const audit = yield* AuditLog.AuditLog
        const [organization, other] = [yield* freshOrganization, yield* freshOrganization]
        yield* appendRecords(organization.id, 2)
        yield* appendRecords(other.id, 2)
        const first = yield* audit.export(organization.id, { filters: {}, order: "asc", pageToken: undefined, maxResults: 1 })
        const token = first.page_token!
        const [body, signature] = token.split(".") as [string, string]
        const forged = `${body}.${signature.startsWith("A") ? "B" : "A"}${signature.slice(1)}`
        const attempts = [
          { organizationId: other.id, order: "asc", pageToken: token },
          { organizationId: organization.id, order: "desc", pageToken: token },
          { organizationId: organization.id, order: "asc", pageToken: forged },
          { organizationId: organization.id, order: "asc", pageToken: "garbled" },
          { organizationId: organization.id, order: "asc", pageToken: "" }
        ] as const
        for (const { order, organizationId, pageToken } of attempts) {
          const error = yield* Effect.flip(audit.export(organizationId, { filters: {}, order, pageToken, maxResults: 5 }))
          expect(error._tag).toBe("InvalidPageToken")
        }
      }))
  })
}
