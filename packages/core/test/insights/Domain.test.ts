import { describe, expect, it } from "@effect/vitest"
import { DateTime, Either, FastCheck as fc, ParseResult, Schema } from "effect"
import {
  Insight,
  InsightDimension,
  InsightFilters,
  InsightListQuery,
  InsightMeasure,
  InsightQuery,
  InsightUpdate,
  InsightUpsert
} from "../../src/insights/Domain.js"
import { insight } from "./arbitraries.js"

/** The failures of decoding `input`, as (path, message) pairs; [] when it decodes. */
const issuesOf = <A, I>(schema: Schema.Schema<A, I>, input: unknown) =>
  Either.match(Schema.decodeUnknownEither(schema, { errors: "all" })(input), {
    onLeft: (error) => ParseResult.ArrayFormatter.formatErrorSync(error).map((issue) => issue.path.join(".")),
    onRight: () => []
  })

const decode = <A, I>(schema: Schema.Schema<A, I>, input: unknown) => Schema.decodeUnknownSync(schema)(input)

describe("Insight", () => {
  it.prop("survives the trip through its JSON shape", [insight], ([i]) => {
    const json = JSON.parse(JSON.stringify(Schema.encodeSync(Insight)(i)))
    expect(decode(Insight, json)).toStrictEqual(i)
  })

  it("writes times as ISO strings", () => {
    const json = Schema.encodeSync(Insight)(fc.sample(insight, { numRuns: 1, seed: 7 })[0]!)
    expect(json.create_time).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/)
  })
})

describe("InsightUpdate", () => {
  it.each([{}, { status: "resolved" }, { assignee: null }, { assignee: "Ann@Example.com", status: "open" }])(
    "accepts the merge patch %j",
    (patch) => expect(issuesOf(InsightUpdate, patch)).toStrictEqual([])
  )

  it("keeps an absent field absent and an explicit null as null", () => {
    expect(decode(InsightUpdate, {})).toStrictEqual(new InsightUpdate({}))
    expect(decode(InsightUpdate, { assignee: null }).assignee).toBeNull()
    expect("assignee" in decode(InsightUpdate, { status: "open" })).toBe(false)
  })

  it.each([
    [{ status: "closed" }, ["status"]],
    [{ status: null }, ["status"]],
    [{ assignee: "not an email" }, ["assignee"]],
    [{ title: "x" }, ["title"]],
    [{ status: "open", etag: '"x"' }, ["etag"]],
    // Postgres cannot store these: refused here rather than failing in the store.
    [{ assignee: "ann\u0000@example.com" }, ["assignee"]]
  ])("rejects %j at the offending field", (patch, paths) => {
    expect([...new Set(issuesOf(InsightUpdate, patch))]).toStrictEqual(paths)
  })
})

describe("InsightUpsert", () => {
  const minimal = {
    insight_type: "warehouse_idle",
    resource_type: "warehouse",
    resource_id: "WH_1",
    title: "  Idle warehouse  ",
    description: "Suspend it",
    severity: "medium"
  }

  it("fills the optional content with defaults and trims names", () => {
    const upsert = decode(InsightUpsert, minimal)
    expect(upsert).toMatchObject({
      title: "Idle warehouse",
      is_current: true,
      dw_id: null,
      connection_id: null,
      potential_savings: null,
      details: {}
    })
  })

  it.each([
    [{ title: "   " }, ["title"]],
    [{ resource_id: "" }, ["resource_id"]],
    [{ insight_type: "made_up" }, ["insight_type"]],
    [{ severity: "critical" }, ["severity"]],
    [{ potential_savings: -1 }, ["potential_savings"]],
    [{ details: [] }, ["details"]],
    [{ status: "resolved" }, ["status"]],
    [{ title: "Idle\u0000" }, ["title"]],
    [{ resource_id: "WH\ud800" }, ["resource_id"]],
    [{ description: "\u0000" }, ["description"]],
    [{ dw_id: "dw\u0000" }, ["dw_id"]],
    [{ details: { note: "a\u0000b" } }, ["details"]],
    [{ details: { ["k\u0000"]: 1 } }, ["details"]]
  ])("rejects %j at the offending field", (change, paths) => {
    expect([...new Set(issuesOf(InsightUpsert, { ...minimal, ...change }))]).toStrictEqual(paths)
  })
})

describe("InsightFilters", () => {
  it("decodes JSON-typed values and lower-cases person filters", () => {
    const filters = decode(InsightFilters, {
      status__in: ["open", "in_progress"],
      assignee__in: ["Ann@Example.com"],
      is_current: true,
      view_count__gte: 2,
      last_viewed_at__lte: "2024-05-01T00:00:00Z"
    })
    expect(filters.assignee__in).toStrictEqual(["ann@example.com"])
    expect(filters.last_viewed_at__lte).toStrictEqual(DateTime.unsafeMake("2024-05-01T00:00:00Z"))
  })

  it.each([
    [{ status__in: [] }, ["status__in"]],
    [{ status__in: ["open", "closed"] }, ["status__in.1"]],
    [{ insight_type__in: ["nope"] }, ["insight_type__in.0"]],
    [{ view_count__gte: -1 }, ["view_count__gte"]],
    [{ view_count__lte: 1.5 }, ["view_count__lte"]],
    [{ is_current: "yes" }, ["is_current"]],
    [{ first_viewed_at__gte: "yesterday" }, ["first_viewed_at__gte"]],
    [{ severity: "high" }, ["severity"]],
    [{ resource_type: "a\u0000" }, ["resource_type"]],
    [{ assignee__in: ["ann@example.com", "\u0000"] }, ["assignee__in.1"]]
  ])("rejects %j at the offending field", (filters, paths) => {
    expect([...new Set(issuesOf(InsightFilters, filters))]).toStrictEqual(paths)
  })
})

describe("InsightListQuery", () => {
  it("defaults to the newest 50 by create_time", () => {
    expect(decode(InsightListQuery, {})).toMatchObject({
      filters: {},
      sort_by: "create_time",
      sort_order: "desc",
      max_results: 50
    })
  })

  it.each([0, 501, 2.5])("rejects max_results %j", (max) => {
    expect(issuesOf(InsightListQuery, { max_results: max })).toContain("max_results")
  })

  it("accepts max_results up to 500 and sort_by update_time", () => {
    expect(issuesOf(InsightListQuery, { max_results: 500, sort_by: "update_time", sort_order: "asc" })).toStrictEqual([])
  })
})

describe("InsightQuery", () => {
  it("defaults to no filters, ascending order and 1000 rows", () => {
    const query = decode(InsightQuery, { dimensions: ["status"], order_by: [{ field: "status" }] })
    expect(query).toMatchObject({ measures: [], filters: {}, limit: 1000, order_by: [{ field: "status", direction: "asc" }] })
  })

  it("accepts a query of every dimension and measure", () => {
    const query = {
      dimensions: InsightDimension.literals,
      measures: InsightMeasure.literals,
      filters: { is_current: true, status__in: ["open"] },
      order_by: [{ field: "potential_savings_sum", direction: "desc" }, { field: "create_month" }],
      limit: 10_000
    }
    expect(issuesOf(InsightQuery, query)).toStrictEqual([])
  })

  it.each([
    [{}, [""]],
    [{ dimensions: [], measures: [] }, [""]],
    [{ measures: ["count"], dimensions: ["status", "severity", "status"] }, ["dimensions.2"]],
    [{ measures: ["count", "count"] }, ["measures.1"]],
    [{ measures: ["count"], dimensions: ["colour"] }, ["dimensions.0"]],
    [{ measures: ["count"], order_by: [{ field: "count" }, { field: "status" }] }, ["order_by.1.field"]],
    [{ measures: ["count"], order_by: [{ field: "count" }, { field: "count", direction: "desc" }] }, ["order_by.1.field"]],
    [{ measures: ["count"], order_by: [{ field: "count", direction: "down" }] }, ["order_by.0.direction"]],
    [{ measures: ["count"], order_by: [{ field: "count", nulls: "last" }] }, ["order_by.0.nulls"]],
    [{ measures: ["count"], filters: { status__in: ["closed"] } }, ["filters.status__in.0"]],
    [{ measures: ["count"], filters: { colour: "red" } }, ["filters.colour"]],
    [{ measures: ["count"], limit: 0 }, ["limit"]],
    [{ measures: ["count"], limit: 10_001 }, ["limit"]],
    [{ measures: ["count"], group_by: ["status"] }, ["group_by"]]
  ])("rejects %j at the offending field", (query, paths) => {
    expect([...new Set(issuesOf(InsightQuery, query))]).toStrictEqual(paths)
  })

  it.prop("answers any JSON with a decoded query or field errors, never a throw", [fc.jsonValue()], ([json]) => {
    const result = Schema.decodeUnknownEither(InsightQuery)(json)
    expect(Either.isRight(result) || ParseResult.isParseError(result.left)).toBe(true)
  })
})
