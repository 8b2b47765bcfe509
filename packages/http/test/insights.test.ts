/**
 * Insights through the real server: listing with every filter and keyset pages, reading with
 * ETags, the conditional merge-patch update, views and the aggregate query.
 */
import { Insight } from "@costline/core"
import { layer } from "@effect/vitest"
import { Effect } from "effect"
import { randomUUID } from "node:crypto"
import { expect } from "vitest"
import { type Client, insightsCall, patchInsight, upsertInsight } from "./support/Insights.js"
import { at, call, makeTestServer, type Reply, seedTenant } from "./support/TestServer.js"

type Tenant = Effect.Effect.Success<typeof seedTenant>

const admin = (tenant: Tenant): Client => ({ id: tenant.id, token: tenant.adminKey })

const idsOf = (items: ReadonlyArray<{ readonly id: string }>) => items.map((item) => item.id)

/** Every page of a listing, following page tokens. */
const listAll = (tenant: Tenant, query: string) =>
  Effect.gen(function*() {
    const items: Array<{ readonly id: string }> = []
    let token: string | null = null
    do {
      const reply: Reply = yield* insightsCall(admin(tenant), "GET", `?${query}${token === null ? "" : `&page_token=${token}`}`)
      expect(reply.status, reply.text).toBe(200)
      expect(reply.body.row_count).toBe(reply.body.items.length)
      items.push(...reply.body.items)
      token = reply.body.page_token
    } while (token !== null)
    return idsOf(items)
  })

const lastInsightsRecord = (tenant: Tenant) =>
  Effect.map(
    call("GET", "/v2/audit-logs?resource__in=insights&sort_order=desc&max_results=1", { token: tenant.adminKey, tenant: tenant.id }),
    (reply) => reply.body.items[0]
  )

layer(makeTestServer(), { excludeTestServices: true })("GET /v2/insights", (it) => {
  it.effect("lists newest first with every field; one page when all fit", () =>
    Effect.gen(function*() {
      const tenant = yield* seedTenant
      const older = yield* upsertInsight(tenant.id, "WH_1").pipe(at("2024-05-01T10:00:00Z"))
      const newer = yield* upsertInsight(tenant.id, "WH_2", { details: { idle_hours: 3 } }).pipe(at("2024-05-01T10:00:01Z"))
      const reply = yield* insightsCall(admin(tenant), "GET", "")
      expect(reply.status).toBe(200)
      expect(reply.body).toMatchObject({ page_token: null, row_count: 2 })
      expect(idsOf(reply.body.items)).toEqual([newer.id, older.id])
      expect(Object.keys(reply.body.items[0]).sort()).toEqual([
        "assignee", "connection_id", "create_time", "description", "details", "dw_id", "etag", "first_viewed_at",
        "first_viewed_by", "id", "insight_type", "is_current", "last_viewed_at", "last_viewed_by", "potential_savings",
        "resource_id", "resource_type", "severity", "status", "title", "update_time", "view_count"
      ])
      expect(reply.body.items[0]).toMatchObject({ status: "open", details: { idle_hours: 3 }, view_count: 0, etag: newer.etag })
    }))

  it.effect("pages of max_results (default 50) follow each other without gaps or repeats, in either sort", () =>
    Effect.gen(function*() {
      const tenant = yield* seedTenant
      const created = yield* Effect.forEach(Array.from({ length: 51 }, (_, n) => `WH_${n}`), (id) => upsertInsight(tenant.id, id))
      const first = yield* insightsCall(admin(tenant), "GET", "")
      expect(first.body.row_count).toBe(50)
      expect(first.body.page_token).toEqual(expect.any(String))
      const everything = idsOf(created).sort()
      for (const query of ["max_results=7", "max_results=7&sort_by=update_time&sort_order=asc", "max_results=500"]) {
        const listed = yield* listAll(tenant, query)
        expect(listed.slice().sort(), query).toEqual(everything)
      }
    }))

  it.effect("set filters take comma lists and repeated parameters; every filter parameter applies", () =>
    Effect.gen(function*() {
      const tenant = yield* seedTenant
      const viewer = yield* tenant.userSession("viewer")
      const a = yield* upsertInsight(tenant.id, "A", { dw_id: "dw-1", connection_id: "c-1" })
      const b = yield* upsertInsight(tenant.id, "B", { insight_type: "select_star", resource_type: "query", is_current: false })
      const c = yield* upsertInsight(tenant.id, "C", { insight_type: "unused_table", resource_type: "table" })
      expect((yield* patchInsight(admin(tenant), a.id, { status: "in_progress", assignee: "ann@example.com" }, a.etag)).status).toBe(200)
      expect((yield* patchInsight(admin(tenant), b.id, { status: "resolved" }, b.etag)).status).toBe(200)
      expect((yield* insightsCall({ id: tenant.id, token: viewer.token }, "POST", `/${a.id}/actions/viewed`)).status).toBe(204)

      const cases: ReadonlyArray<readonly [string, ReadonlyArray<string>]> = [
        ["status__in=open", [c.id]],
        ["status__in=in_progress,resolved", [a.id, b.id]],
        ["status__in=in_progress&status__in=resolved", [a.id, b.id]],
        ["status__in=in_progress, resolved&status__in=open", [a.id, b.id, c.id]],
        ["assignee__in=ANN@example.com,bob@example.com", [a.id]],
        ["insight_type__in=select_star&insight_type__in=unused_table", [b.id, c.id]],
        [`first_viewed_by__in=${viewer.email}`, [a.id]],
        [`last_viewed_by__in=${viewer.email.toUpperCase()}`, [a.id]],
        ["is_current=false", [b.id]],
        ["resource_type=table", [c.id]],
        ["dw_id=dw-1", [a.id]],
        ["connection_id=c-1", [a.id]],
        ["view_count__gte=1", [a.id]],
        ["view_count__lte=0", [b.id, c.id]],
        ["first_viewed_at__gte=2000-01-01T00:00:00Z", [a.id]],
        ["first_viewed_at__lte=2000-01-01T00:00:00Z", []],
        ["last_viewed_at__gte=2000-01-01T00:00Z", [a.id]],
        ["last_viewed_at__lte=2999-01-01T00:00:00%2B02:00", [a.id]],
        ["status__in=in_progress,resolved&is_current=true", [a.id]]
      ]
      for (const [query, expected] of cases) {
        expect((yield* listAll(tenant, query)).sort(), query).toEqual([...expected].sort())
      }
    }))

  it.effect("bad parameter values are 422s naming the parameter; a bad page token is a 400", () =>
    Effect.gen(function*() {
      const tenant = yield* seedTenant
      const cases = [
        ["max_results=0", "query.max_results"],
        ["max_results=501", "query.max_results"],
        ["max_results=ten", "query.max_results"],
        ["sort_by=title", "query.sort_by"],
        ["sort_order=newest", "query.sort_order"],
        ["status__in=open,closed", "query.status__in"],
        ["status__in=", "query.status__in"],
        ["insight_type__in=made_up", "query.insight_type__in"],
        ["assignee__in=a@b.c,,", "query.assignee__in"],
        ["is_current=yes", "query.is_current"],
        ["view_count__gte=-1", "query.view_count__gte"],
        ["view_count__lte=1.5", "query.view_count__lte"],
        ["first_viewed_at__gte=yesterday", "query.first_viewed_at__gte"],
        ["last_viewed_at__lte=2024-02-30T00:00:00Z", "query.last_viewed_at__lte"],
        ["resource_type=a%00b", "query.resource_type"]
      ] as const
      for (const [query, field] of cases) {
        const reply = yield* insightsCall(admin(tenant), "GET", `?${query}`)
        expect(reply.status, query).toBe(422)
        expect(reply.body.code).toBe("validation_failed")
        expect(reply.body.details.map((detail: { field: string }) => detail.field), query).toEqual([field])
      }
      const garbled = yield* insightsCall(admin(tenant), "GET", "?page_token=garbled")
      expect(garbled.status).toBe(400)
      expect(garbled.body.code).toBe("invalid_page_token")
    }))

  it.effect("a page token resumes only the sort it came from", () =>
    Effect.gen(function*() {
      const tenant = yield* seedTenant
      yield* upsertInsight(tenant.id, "A")
      yield* upsertInsight(tenant.id, "B")
      const token = (yield* insightsCall(admin(tenant), "GET", "?max_results=1")).body.page_token
      const resumed = yield* insightsCall(admin(tenant), "GET", `?max_results=1&page_token=${token}`)
      expect(resumed.status).toBe(200)
      const otherSort = yield* insightsCall(admin(tenant), "GET", `?max_results=1&sort_order=asc&page_token=${token}`)
      expect(otherSort.status).toBe(400)
      expect(otherSort.body.code).toBe("invalid_page_token")
    }))
})

layer(makeTestServer(), { excludeTestServices: true })("GET /v2/insights/{insight_id}", (it) => {
  it.effect("answers the insight with its strong ETag in the header", () =>
    Effect.gen(function*() {
      const tenant = yield* seedTenant
      const insight = yield* upsertInsight(tenant.id, "WH_1")
      const reply = yield* insightsCall(admin(tenant), "GET", `/${insight.id}`)
      expect(reply.status).toBe(200)
      expect(reply.body).toMatchObject({ id: insight.id, resource_id: "WH_1", etag: insight.etag })
      expect(reply.headers.get("etag")).toBe(insight.etag)
      expect(insight.etag).toMatch(/^"[A-Za-z0-9_-]{22}"$/)
      // Ids are matched whatever their case.
      expect((yield* insightsCall(admin(tenant), "GET", `/${insight.id.toUpperCase()}`)).body.id).toBe(insight.id)
    }))

  it.effect("If-None-Match with the current ETag (strong or weak, or in a list) is a 304 without body; a changed one is a 200", () =>
    Effect.gen(function*() {
      const tenant = yield* seedTenant
      const insight = yield* upsertInsight(tenant.id, "WH_1")
      const get = (ifNoneMatch: string) => insightsCall(admin(tenant), "GET", `/${insight.id}`, { headers: { "if-none-match": ifNoneMatch } })
      for (const condition of [insight.etag, `W/${insight.etag}`, `"old", ${insight.etag}`, "*"]) {
        const reply = yield* get(condition)
        expect(reply.status, condition).toBe(304)
        expect(reply.text).toBe("")
        expect(reply.headers.get("etag")).toBe(insight.etag)
      }
      expect((yield* get("\"old\"")).status).toBe(200)
      const malformed = yield* get("old")
      expect(malformed.status).toBe(422)
      expect(malformed.body.details[0].field).toBe("header.if-none-match")
    }))

  it.effect("an id that is not a UUID, unknown, or of another tenant is a 404 on every insight route", () =>
    Effect.gen(function*() {
      const tenant = yield* seedTenant
      const other = yield* seedTenant
      const theirs = yield* upsertInsight(other.id, "WH_1")
      for (const id of ["not-a-uuid", "actions", randomUUID(), theirs.id]) {
        const replies = [
          yield* insightsCall(admin(tenant), "GET", `/${id}`),
          yield* patchInsight(admin(tenant), id, { status: "resolved" }, "*"),
          yield* insightsCall(admin(tenant), "POST", `/${id}/actions/viewed`)
        ]
        expect(replies.map((reply) => reply.status), id).toEqual([404, 404, 404])
        expect(replies[0]!.body.code).toBe("not_found")
      }
    }))
})

layer(makeTestServer(), { excludeTestServices: true })("PATCH /v2/insights/{insight_id}", (it) => {
  it.effect("applies a merge patch (application/json or merge-patch+json) with the current ETag, answers the insight and its new ETag, and audits it", () =>
    Effect.gen(function*() {
      const tenant = yield* seedTenant
      const insight = yield* upsertInsight(tenant.id, "WH_1")
      const reply = yield* patchInsight(admin(tenant), insight.id, { status: "in_progress", assignee: "Ann@Example.com" }, insight.etag)
      expect(reply.status).toBe(200)
      expect(reply.body).toMatchObject({ status: "in_progress", assignee: "ann@example.com", title: insight.title })
      expect(reply.headers.get("etag")).toBe(reply.body.etag)
      expect(reply.body.etag).not.toBe(insight.etag)

      const asJson = yield* insightsCall(admin(tenant), "PATCH", `/${insight.id}`, {
        json: { assignee: null },
        headers: { "if-match": reply.body.etag }
      })
      expect(asJson.status).toBe(200)
      expect(asJson.body).toMatchObject({ status: "in_progress", assignee: null })
      expect(yield* lastInsightsRecord(tenant)).toMatchObject({
        operation: "update",
        status: "success",
        record_id: insight.id,
        changed_by_type: "api_key",
        old_values: { assignee: "ann@example.com" },
        new_values: { assignee: null }
      })
      // One audit policy: an update records the whole state before and after, not only what changed.
      expect(yield* lastInsightsRecord(tenant)).toMatchObject({
        old_values: { status: "in_progress", title: insight.title, insight_type: insight.insight_type },
        new_values: { status: "in_progress", title: insight.title, insight_type: insight.insight_type }
      })
    }))

  it.effect("without If-Match: 428; with a stale or weak ETag: 412; a move outside the table: 409 invalid_transition", () =>
    Effect.gen(function*() {
      const tenant = yield* seedTenant
      const insight = yield* upsertInsight(tenant.id, "WH_1")
      const missing = yield* patchInsight(admin(tenant), insight.id, { status: "resolved" }, undefined)
      expect([missing.status, missing.body.code]).toEqual([428, "precondition_required"])
      expect(missing.headers.get("content-type")).toBe("application/problem+json")
      const weak = yield* patchInsight(admin(tenant), insight.id, { status: "resolved" }, `W/${insight.etag}`)
      expect([weak.status, weak.body.code]).toEqual([412, "precondition_failed"])

      const resolved = yield* patchInsight(admin(tenant), insight.id, { status: "resolved" }, insight.etag)
      expect(resolved.status).toBe(200)
      const stale = yield* patchInsight(admin(tenant), insight.id, { status: "open" }, insight.etag)
      expect([stale.status, stale.body.code]).toEqual([412, "precondition_failed"])
      const invalid = yield* patchInsight(admin(tenant), insight.id, { status: "in_progress" }, resolved.body.etag)
      expect([invalid.status, invalid.body.code]).toEqual([409, "invalid_transition"])
      expect(invalid.body.detail).toBe("cannot move from 'resolved' to 'in_progress'")
    }))

  it.effect("unknown or invalid fields are 422s naming the field; a patch that changes nothing is a 200 with the same ETag", () =>
    Effect.gen(function*() {
      const tenant = yield* seedTenant
      const insight = yield* upsertInsight(tenant.id, "WH_1")
      const cases = [
        [{ title: "Renamed" }, "body.title"],
        [{ status: "closed" }, "body.status"],
        [{ assignee: "not an email" }, "body.assignee"],
        [{ status: null }, "body.status"]
      ] as const
      for (const [patch, field] of cases) {
        const reply = yield* patchInsight(admin(tenant), insight.id, patch, insight.etag)
        expect(reply.status, JSON.stringify(patch)).toBe(422)
        expect(new Set(reply.body.details.map((detail: { field: string }) => detail.field))).toEqual(new Set([field]))
      }
      const unchanged = yield* patchInsight(admin(tenant), insight.id, { status: "open" }, insight.etag)
      expect(unchanged.status).toBe(200)
      expect(unchanged.headers.get("etag")).toBe(insight.etag)
      expect((yield* lastInsightsRecord(tenant)).operation).toBe("create")
    }))

  it.effect("of concurrent patches sent with the same ETag exactly one succeeds; the others get 412", () =>
    Effect.gen(function*() {
      const tenant = yield* seedTenant
      const insight = yield* upsertInsight(tenant.id, "WH_1")
      const replies = yield* Effect.all(
        Array.from({ length: 6 }, (_, n) => patchInsight(admin(tenant), insight.id, { assignee: `p${n}@example.com` }, insight.etag)),
        { concurrency: "unbounded" }
      )
      expect(replies.map((reply) => reply.status).sort()).toEqual([200, 412, 412, 412, 412, 412])
    }))

  it.effect("merge-patch+json is a patch's media type only: on a POST it is a 415", () =>
    Effect.gen(function*() {
      const tenant = yield* seedTenant
      const reply = yield* insightsCall(admin(tenant), "POST", "/actions/query", {
        body: JSON.stringify({ measures: ["count"] }),
        headers: { "content-type": "application/merge-patch+json" }
      })
      expect(reply.status).toBe(415)
    }))
})

layer(makeTestServer(), { excludeTestServices: true })("POST /v2/insights/{insight_id}/actions/viewed", (it) => {
  it.effect("a user's view is a 204 that counts once a day, sets first and last viewer, and leaves the ETag", () =>
    Effect.gen(function*() {
      const tenant = yield* seedTenant
      const insight = yield* upsertInsight(tenant.id, "WH_1")
      const [first, second] = [yield* tenant.userSession("viewer"), yield* tenant.userSession("editor")]
      const view = (token: string) => insightsCall({ id: tenant.id, token }, "POST", `/${insight.id}/actions/viewed`)
      const reply = yield* view(first.token)
      expect(reply.status).toBe(204)
      expect(reply.text).toBe("")
      yield* view(first.token)
      yield* view(second.token)
      const read = yield* insightsCall(admin(tenant), "GET", `/${insight.id}`)
      expect(read.body).toMatchObject({
        view_count: 2,
        first_viewed_by: first.email,
        last_viewed_by: second.email,
        etag: insight.etag,
        update_time: read.body.create_time
      })
    }))

  it.effect("an API key's call is a 204 that records nothing", () =>
    Effect.gen(function*() {
      const tenant = yield* seedTenant
      const insight = yield* upsertInsight(tenant.id, "WH_1")
      expect((yield* insightsCall(admin(tenant), "POST", `/${insight.id}/actions/viewed`)).status).toBe(204)
      const read = yield* insightsCall(admin(tenant), "GET", `/${insight.id}`)
      expect(read.body).toMatchObject({ view_count: 0, first_viewed_by: null, last_viewed_at: null })
    }))
})

layer(makeTestServer(), { excludeTestServices: true })("POST /v2/insights/actions/query", (it) => {
  it.effect("returns one row per combination of the dimensions with the measures, and row_count", () =>
    Effect.gen(function*() {
      const tenant = yield* seedTenant
      yield* upsertInsight(tenant.id, "A", { potential_savings: 10, severity: "high" })
      yield* upsertInsight(tenant.id, "B", { potential_savings: 30, severity: "high" })
      yield* upsertInsight(tenant.id, "C", { potential_savings: null, severity: "low", insight_type: "select_star" })
      const reply = yield* insightsCall(admin(tenant), "POST", "/actions/query", {
        json: {
          dimensions: ["severity"],
          measures: ["count", "potential_savings_sum", "potential_savings_avg", "view_count_sum"],
          filters: { insight_type__in: ["warehouse_idle", "select_star"], is_current: true },
          order_by: [{ field: "count", direction: "desc" }]
        }
      })
      expect(reply.status).toBe(200)
      expect(reply.body).toEqual({
        items: [
          { severity: "high", count: 2, potential_savings_sum: 40, potential_savings_avg: 20, view_count_sum: 0 },
          { severity: "low", count: 1, potential_savings_sum: null, potential_savings_avg: null, view_count_sum: 0 }
        ],
        row_count: 2
      })
    }))

  it.effect("cuts the result at limit, without a page token", () =>
    Effect.gen(function*() {
      const tenant = yield* seedTenant
      for (const id of ["A", "B", "C"]) yield* upsertInsight(tenant.id, id, { dw_id: `dw-${id}` })
      const reply = yield* insightsCall(admin(tenant), "POST", "/actions/query", {
        json: { dimensions: ["dw_id"], measures: ["count"], limit: 2 }
      })
      expect(reply.body).toEqual({ items: [{ dw_id: "dw-A", count: 1 }, { dw_id: "dw-B", count: 1 }], row_count: 2 })
    }))

  it.effect("unknown dimensions or measures, bad filters and limits are 422s naming the element", () =>
    Effect.gen(function*() {
      const tenant = yield* seedTenant
      const cases = [
        [{ dimensions: ["colour"] }, "body.dimensions[0]"],
        [{ measures: ["count", "median"] }, "body.measures[1]"],
        [{ measures: ["count"], limit: 0 }, "body.limit"],
        [{ measures: ["count"], limit: 10_001 }, "body.limit"],
        [{ measures: ["count"], filters: { status__in: ["closed"] } }, "body.filters.status__in[0]"],
        [{ measures: ["count"], filters: { severity: "high" } }, "body.filters.severity"],
        [{ measures: ["count"], order_by: [{ field: "status" }] }, "body.order_by[0].field"],
        [{}, "body"]
      ] as const
      for (const [query, field] of cases) {
        const reply = yield* insightsCall(admin(tenant), "POST", "/actions/query", { json: query })
        expect(reply.status, JSON.stringify(query)).toBe(422)
        expect(reply.body.details.map((detail: { field: string }) => detail.field), JSON.stringify(query)).toEqual([field])
      }
    }))

  it.effect("an __in list longer than the store binds in one statement is a 422 at the list, in the body as in the query", () =>
    Effect.gen(function*() {
      const tenant = yield* seedTenant
      yield* upsertInsight(tenant.id, "A")
      // 40,000 emails fit in 1 MiB; SQLite refuses a statement with more than 32,766 values (was a 500).
      const emails = Array.from({ length: 40_000 }, (_, i) => `u${i}@x.io`)
      const reply = yield* insightsCall(admin(tenant), "POST", "/actions/query", {
        json: { measures: ["count"], filters: { assignee__in: emails } }
      })
      expect(reply.status).toBe(422)
      expect(reply.body.details).toMatchObject([{ field: "body.filters.assignee__in", issue: "invalid_value" }])
      // The most a list may hold still works.
      const most = yield* insightsCall(admin(tenant), "POST", "/actions/query", {
        json: { measures: ["count"], filters: { status__in: Array(Insight.MAX_ANY_OF).fill("open") } }
      })
      expect(most.body).toEqual({ items: [{ count: 1 }], row_count: 1 })

      const listed = yield* insightsCall(admin(tenant), "GET", `?status__in=${Array(Insight.MAX_ANY_OF + 1).fill("open").join(",")}`)
      expect(listed.status).toBe(422)
      expect(listed.body.details).toMatchObject([{ field: "query.status__in", message: `must list at most ${Insight.MAX_ANY_OF} values, not ${Insight.MAX_ANY_OF + 1}` }])
    }))
})
