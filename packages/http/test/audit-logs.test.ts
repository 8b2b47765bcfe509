/**
 * GET /v2/audit-logs through the real server: every filter, both orders, exactly-once paging,
 * page-token rejection, parameter validation and the admin requirement.
 */
import { Actor, AuditLog } from "@costline/core"
import type { Audit, Ids } from "@costline/core"
import { layer } from "@effect/vitest"
import { Effect, FastCheck as fc } from "effect"

import { expect } from "vitest"
import { at, call, makeTestServer, type Reply, seedTenant } from "./support/TestServer.js"

/** A record as the API returns it (JSON). */
type Exported = { readonly id: string } & Readonly<Record<string, unknown>>

/** Appends a record as if it happened at `iso` (the audit log takes its time from the clock). */
const recordAt = (
  organizationId: Ids.OrganizationId,
  iso: string,
  entry: Audit.AuditEntry,
  changedBy: { readonly name: string; readonly type: "user" | "api_key" | "system" } = { name: "system", type: "system" }
) =>
  Effect.flatMap(AuditLog.AuditLog, (audit) =>
    audit.record(new Actor.Actor({ changedBy: changedBy.name, changedByType: changedBy.type, requestId: null }), organizationId, entry)
  ).pipe(at(iso))

const teamCreated: Audit.AuditEntry = { target: { resource: "teams" }, table_name: "teams", record_id: "t1", operation: "create" }

/** A tenant whose log holds records of every kind, at known times. */
const seedHistory = Effect.gen(function*() {
  const tenant = yield* seedTenant
  yield* recordAt(tenant.id, "2030-01-01T00:00:00Z", teamCreated, { name: "alice@example.com", type: "user" })
  yield* recordAt(tenant.id, "2030-01-02T00:00:00Z", {
    target: { resource: "teams" },
    table_name: "team_members",
    record_id: "m1",
    operation: "update",
    status: "failure"
  }, { name: "api_key:ci", type: "api_key" })
  yield* recordAt(tenant.id, "2030-01-03T00:00:00Z", {
    target: { event_type: "session" },
    table_name: "sessions",
    record_id: "s1",
    operation: "login"
  }, { name: "Bob@Example.COM", type: "user" })
  yield* recordAt(tenant.id, "2030-01-04T00:00:00Z", {
    target: { resource: "api_keys" },
    table_name: "api_keys",
    record_id: "k1",
    operation: "delete"
  })
  yield* recordAt(tenant.id, "2030-01-05T00:00:00Z", {
    target: { event_type: "organization" },
    table_name: "organizations",
    record_id: tenant.id,
    operation: "update"
  })
  return tenant
})

const exportLog = (tenant: { readonly id: string; readonly adminKey: string }, query = "") =>
  call("GET", `/v2/audit-logs${query === "" ? "" : `?${query}`}`, { token: tenant.adminKey, tenant: tenant.id })

/** Every record of the tenant, oldest first, read page by page. */
const exportAll = (tenant: { readonly id: string; readonly adminKey: string }, query = "") =>
  Effect.gen(function*() {
    const items: Array<Exported> = []
    let token: string | null = null
    do {
      const reply: Reply = yield* exportLog(
        tenant,
        [query, "max_results=500", token === null ? "" : `page_token=${token}`].filter((p) => p !== "").join("&")
      )
      expect(reply.status).toBe(200)
      items.push(...reply.body.items)
      token = reply.body.page_token
    } while (token !== null)
    return items
  })

const ids = (items: ReadonlyArray<{ readonly id: unknown }>) => items.map((item) => item.id)

layer(makeTestServer(), { excludeTestServices: true })("GET /v2/audit-logs", (it) => {
  it.effect("exports records in the documented shape, uncached, with row_count", () =>
    Effect.gen(function*() {
      const tenant = yield* seedHistory
      const reply = yield* exportLog(tenant, "changed_at__gte=2030-01-01T00:00:00Z&max_results=1")
      expect(reply.status).toBe(200)
      expect(reply.headers.get("cache-control")).toBe("no-store")
      expect(reply.body.row_count).toBe(1)
      expect(typeof reply.body.page_token).toBe("string")
      expect(reply.body.items[0]).toEqual({
        id: expect.any(String),
        changed_at: "2030-01-01T00:00:00.000Z",
        kind: "resource",
        resource: "teams",
        event_type: null,
        table_name: "teams",
        record_id: "t1",
        operation: "create",
        status: "success",
        changed_by: "alice@example.com",
        changed_by_type: "user",
        old_values: null,
        new_values: null,
        request_id: null
      })
    }))

  const filters: ReadonlyArray<readonly [string, (record: Exported) => boolean]> = [
    ["table_name__in=team_members", (r) => r.table_name === "team_members"],
    ["event_type__in=session", (r) => r.event_type === "session"],
    ["resource__in=teams,api_keys", (r) => r.resource === "teams" || r.resource === "api_keys"],
    ["resource__in=teams&resource__in=dashboards", (r) => r.resource === "teams"],
    ["resource__not_in=teams", (r) => r.resource !== "teams"],
    ["operation__in=create", (r) => r.operation === "create"],
    ["operation__not_in=create,login", (r) => r.operation !== "create" && r.operation !== "login"],
    ["status__in=failure", (r) => r.status === "failure"],
    ["status__not_in=failure", (r) => r.status !== "failure"],
    ["changed_by__ilike=%25@EXAMPLE.com", (r) => /@example\.com$/i.test(String(r.changed_by))],
    ["changed_by__not_ilike=api_key:%25", (r) => !String(r.changed_by).startsWith("api_key:")],
    ["changed_at__gte=2030-01-03T00:00:00Z", (r) => String(r.changed_at) >= "2030-01-03"],
    ["changed_at__lte=2030-01-02T00:00:00Z", (r) => String(r.changed_at) <= "2030-01-02T00:00:00.000Z"],
    [
      "changed_at__in_range=2030-01-02T00:00:00Z,2030-01-04T00:00:00Z",
      (r) => String(r.changed_at) >= "2030-01-02" && String(r.changed_at) <= "2030-01-04T00:00:00.000Z"
    ],
    [
      "changed_at__in_range=2030-01-01T00:00:00Z,2030-01-04T00:00:00Z&changed_at__gte=2030-01-03T00:00:00Z",
      (r) => String(r.changed_at) >= "2030-01-03" && String(r.changed_at) <= "2030-01-04T00:00:00.000Z"
    ],
    ["changed_by__isnull=true", () => false]
  ]

  it.effect.each(filters)("filters with %s", ([query, keep]) =>
    Effect.gen(function*() {
      const tenant = yield* seedHistory
      const all = yield* exportAll(tenant)
      const expected = all.filter(keep)
      // Each filter must keep some records and drop others, or the test would prove nothing.
      if (query !== "changed_by__isnull=true") expect(expected.length).toBeGreaterThan(0)
      expect(expected.length).toBeLessThan(all.length)
      expect(ids(yield* exportAll(tenant, query))).toEqual(ids(expected))
    }))

  it.effect("changed_by__isnull=false keeps every record (changed_by is never null)", () =>
    Effect.gen(function*() {
      const tenant = yield* seedHistory
      expect(ids(yield* exportAll(tenant, "changed_by__isnull=false"))).toEqual(ids(yield* exportAll(tenant)))
    }))

  it.effect("filters by id", () =>
    Effect.gen(function*() {
      const tenant = yield* seedHistory
      const all = yield* exportAll(tenant)
      const wanted = [all[1]!.id, all[3]!.id]
      expect(ids(yield* exportAll(tenant, `id__in=${wanted.join(",")}`))).toEqual(wanted)
      expect(ids(yield* exportAll(tenant, `id__in=${wanted[0]}&id__in=${wanted[1]}`))).toEqual(wanted)
    }))

  it.effect("sort_order=desc is the reverse of the default ascending order", () =>
    Effect.gen(function*() {
      const tenant = yield* seedHistory
      const ascending = yield* exportAll(tenant)
      expect(ids(yield* exportAll(tenant, "sort_order=asc"))).toEqual(ids(ascending))
      expect(ids(yield* exportAll(tenant, "sort_order=desc"))).toEqual(ids(ascending).reverse())
    }))

  it.effect("defaults to 50 records per page", () =>
    Effect.gen(function*() {
      const tenant = yield* seedTenant
      for (let i = 0; i < 55; i++) yield* recordAt(tenant.id, "2030-01-01T00:00:00Z", teamCreated)
      const first = yield* exportLog(tenant)
      expect(first.body.row_count).toBe(50)
      const rest = yield* exportLog(tenant, `page_token=${first.body.page_token}`)
      expect(rest.body.row_count).toBe(56 - 50)
    }))

  it.effect("pages deliver every record exactly once, also those committed between polls", () =>
    Effect.gen(function*() {
      const tenant = yield* seedHistory
      const before = yield* exportAll(tenant)
      const seen: Array<unknown> = []
      const added: Array<unknown> = []
      let token: string | null = null
      let lastToken: string | null = null
      do {
        const reply: Reply = yield* exportLog(tenant, `max_results=2${token === null ? "" : `&page_token=${token}`}`)
        expect(reply.status).toBe(200)
        seen.push(...ids(reply.body.items))
        if (reply.body.items.length > 0) expect(reply.body.page_token).not.toBeNull()
        token = reply.body.page_token
        if (token !== null) lastToken = token
        // Same timestamp as an earlier record: the cursor must not rely on changed_at.
        if (added.length < 3) added.push((yield* recordAt(tenant.id, "2030-01-01T00:00:00Z", teamCreated)).id)
      } while (token !== null)
      expect(seen).toEqual([...ids(before), ...added])

      const later = [
        (yield* recordAt(tenant.id, "2029-06-01T00:00:00Z", teamCreated)).id,
        (yield* recordAt(tenant.id, "2029-06-01T00:00:00Z", teamCreated)).id
      ]
      const resumed = yield* exportLog(tenant, `page_token=${lastToken}`)
      expect(ids(resumed.body.items)).toEqual(later)
    }))

  it.effect("pages in descending order walk back to the oldest record", () =>
    Effect.gen(function*() {
      const tenant = yield* seedHistory
      const ascending = yield* exportAll(tenant)
      const seen: Array<unknown> = []
      let token: string | null = null
      do {
        const reply: Reply = yield* exportLog(
          tenant,
          `sort_order=desc&max_results=2${token === null ? "" : `&page_token=${token}`}`
        )
        seen.push(...ids(reply.body.items))
        token = reply.body.page_token
      } while (token !== null)
      expect(seen).toEqual(ids(ascending).reverse())
    }))

  it.effect("rejects forged, garbled, other-tenant and other-order page tokens with 400", () =>
    Effect.gen(function*() {
      const tenant = yield* seedHistory
      const other = yield* seedHistory
      const token: string = (yield* exportLog(tenant, "max_results=1")).body.page_token
      const otherToken: string = (yield* exportLog(other, "max_results=1")).body.page_token
      const [body, signature] = token.split(".") as [string, string]
      const forged = `${body}.${signature.startsWith("A") ? "B" : "A"}${signature.slice(1)}`
      const cases = [
        `page_token=${forged}`,
        "page_token=not-a-token",
        `page_token=${otherToken}`,
        `page_token=${token}&sort_order=desc`
      ]
      for (const query of cases) {
        const reply = yield* exportLog(tenant, query)
        expect(reply.status, query).toBe(400)
        expect(reply.body.code).toBe("invalid_page_token")
        expect(reply.headers.get("content-type")).toBe("application/problem+json")
      }
    }))

  const invalid: ReadonlyArray<readonly [string, string]> = [
    ["max_results=0", "max_results"],
    ["max_results=501", "max_results"],
    ["max_results=ten", "max_results"],
    ["max_results=1.5", "max_results"],
    ["sort_order=newest", "sort_order"],
    ["page_token=a&page_token=b", "page_token"],
    ["changed_at__gte=yesterday", "changed_at__gte"],
    ["changed_at__lte=2030-02-30T00:00:00Z", "changed_at__lte"],
    ["changed_at__in_range=2030-01-01T00:00:00Z", "changed_at__in_range"],
    ["changed_at__in_range=2030-01-02T00:00:00Z,2030-01-01T00:00:00Z", "changed_at__in_range"],
    ["table_name__in=teams,", "table_name__in"],
    ["event_type__in=deploy", "event_type__in"],
    ["resource__in=teams,widgets", "resource__in"],
    ["resource__not_in=widgets", "resource__not_in"],
    ["operation__in=upsert", "operation__in"],
    ["operation__not_in=upsert", "operation__not_in"],
    ["status__in=maybe", "status__in"],
    ["status__not_in=maybe", "status__not_in"],
    ["id__in=42", "id__in"],
    ["changed_by__isnull=yes", "changed_by__isnull"]
  ]

  it.effect("changed_by patterns hold 1,000 characters; longer ones are 422 at the parameter", () =>
    Effect.gen(function*() {
      const tenant = yield* seedTenant
      expect((yield* exportLog(tenant, `changed_by__ilike=${"%25a".repeat(500)}`)).status).toBe(200)
      for (const parameter of ["changed_by__ilike", "changed_by__not_ilike"]) {
        const reply = yield* exportLog(tenant, `${parameter}=${"%25a".repeat(500)}b`)
        expect(reply.status).toBe(422)
        expect(reply.body.details).toMatchObject([{ field: `query.${parameter}`, message: "must be at most 1000 characters" }])
      }
    }))

  it.effect.each(invalid)("answers 422 for %s", ([query, parameter]) =>
    Effect.gen(function*() {
      const tenant = yield* seedTenant
      const reply = yield* exportLog(tenant, query)
      expect(reply.status).toBe(422)
      expect(reply.body).toMatchObject({
        type: "urn:costline:problem:validation_failed",
        title: "Validation failed",
        status: 422,
        code: "validation_failed",
        request_id: reply.headers.get("x-request-id")
      })
      expect(reply.body.details.map((d: { field: string }) => d.field)).toEqual([`query.${parameter}`])
      expect(reply.body.details[0].message.length).toBeGreaterThan(0)
    }))

  it.effect("needs admin access: admin keys and admin users pass, others get 403", () =>
    Effect.gen(function*() {
      const tenant = yield* seedTenant
      const admin = yield* tenant.userSession("admin")
      const viewer = yield* tenant.userSession("viewer")
      const allowed = [tenant.adminKey, yield* tenant.apiKey("admin", ["audit_logs:read"]), admin.token]
      const denied = [
        yield* tenant.apiKey("read_write"),
        yield* tenant.apiKey("admin", ["teams:write"]),
        viewer.token
      ]
      for (const token of allowed) {
        expect((yield* call("GET", "/v2/audit-logs", { token, tenant: tenant.id })).status).toBe(200)
      }
      for (const token of denied) {
        const reply = yield* call("GET", "/v2/audit-logs", { token, tenant: tenant.id })
        expect(reply.status).toBe(403)
        expect(reply.body.code).toBe("forbidden")
      }
    }))

  const queryString = fc.array(
    fc.tuple(
      fc.oneof(
        fc.constantFrom(
          "max_results",
          "sort_order",
          "page_token",
          "changed_at__gte",
          "changed_at__in_range",
          "resource__in",
          "id__in",
          "changed_by__ilike",
          "changed_by__isnull"
        ),
        fc.string()
      ),
      fc.oneof(fc.string(), fc.constantFrom("1", "500", "desc", "teams,api_keys", "2030-01-01T00:00:00Z", "true", "%"))
    ),
    { maxLength: 6 }
  )

  it.effect.prop("any query string gets 200, 400 or 422, never a server error", { query: queryString }, ({ query }) =>
    Effect.gen(function*() {
      const tenant = yield* seedTenant
      const search = query.map(([key, value]) => `${encodeURIComponent(key)}=${encodeURIComponent(value)}`).join("&")
      const reply = yield* exportLog(tenant, search)
      expect([200, 400, 422], `${search} → ${reply.status} ${reply.text}`).toContain(reply.status)
    }), { fastCheck: { numRuns: 100 } })
})
