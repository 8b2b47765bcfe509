import { describe, expect, it } from "@effect/vitest"
import { Either, Schema } from "effect"
import { AuditLogsParams, DateTimeRangeParam, toExportQuery } from "../../src/api/audit/Params.js"

const params = Schema.decodeUnknownSync(AuditLogsParams)

describe("audit-log query parameters", () => {
  it("default to 50 records, oldest first, no filters", () => {
    const query = toExportQuery(params({}))
    expect(query).toMatchObject({ order: "asc", maxResults: 50, pageToken: undefined })
    expect(Object.values(query.filters).every((value) => value === undefined)).toBe(true)
  })

  it("map every filter to core's names", () => {
    const query = toExportQuery(params({
      table_name__in: ["teams"],
      event_type__in: ["session"],
      resource__in: ["teams"],
      resource__not_in: ["api_keys"],
      operation__in: ["create"],
      operation__not_in: ["delete"],
      status__in: ["success"],
      status__not_in: ["failure"],
      id__in: ["6f1c0d2e-5d0a-4b5e-9a59-2f1e8f0c1a2b"],
      changed_by__ilike: "%a%",
      changed_by__not_ilike: "%b%",
      changed_by__isnull: "false"
    }))
    expect(query.filters).toEqual({
      changed_at_gte: undefined,
      changed_at_lte: undefined,
      table_name_in: ["teams"],
      event_type_in: ["session"],
      resource_in: ["teams"],
      resource_not_in: ["api_keys"],
      operation_in: ["create"],
      operation_not_in: ["delete"],
      status_in: ["success"],
      status_not_in: ["failure"],
      id_in: ["6f1c0d2e-5d0a-4b5e-9a59-2f1e8f0c1a2b"],
      changed_by_ilike: "%a%",
      changed_by_not_ilike: "%b%",
      changed_by_isnull: false
    })
  })

  it("apply the tighter of changed_at__in_range and changed_at__gte / __lte", () => {
    const range = "2030-01-01T00:00:00Z,2030-01-31T00:00:00Z"
    const inside = toExportQuery(params({
      changed_at__in_range: range,
      changed_at__gte: "2030-01-10T00:00:00Z",
      changed_at__lte: "2030-01-20T00:00:00Z"
    }))
    expect(inside.filters.changed_at_gte?.toISOString()).toBe("2030-01-10T00:00:00.000Z")
    expect(inside.filters.changed_at_lte?.toISOString()).toBe("2030-01-20T00:00:00.000Z")
    const outside = toExportQuery(params({
      changed_at__in_range: range,
      changed_at__gte: "2029-01-01T00:00:00Z",
      changed_at__lte: "2031-01-01T00:00:00Z"
    }))
    expect(outside.filters.changed_at_gte?.toISOString()).toBe("2030-01-01T00:00:00.000Z")
    expect(outside.filters.changed_at_lte?.toISOString()).toBe("2030-01-31T00:00:00.000Z")
  })
})

describe("changed_at__in_range", () => {
  const decode = Schema.decodeUnknownEither(DateTimeRangeParam)

  it("is two date-times, inclusive, and may be a single instant", () => {
    expect(decode("2030-01-01T00:00:00Z, 2030-01-01T00:00:00Z")).toEqual(
      Either.right({ start: new Date("2030-01-01T00:00:00Z"), end: new Date("2030-01-01T00:00:00Z") })
    )
  })

  it.each([
    ["2030-01-01T00:00:00Z", "two ISO 8601 date-times"],
    ["2030-01-01T00:00:00Z,2030-01-02T00:00:00Z,2030-01-03T00:00:00Z", "two ISO 8601 date-times"],
    ["2030-01-01T00:00:00Z,soon", "two ISO 8601 date-times"],
    ["2030-01-02T00:00:00Z,2030-01-01T00:00:00Z", "the start must not be after the end"]
  ])("rejects %s", (text, message) => {
    const result = decode(text)
    expect(Either.isLeft(result) && result.left.message).toContain(message)
  })
})
