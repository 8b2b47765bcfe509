import { describe, expect, it } from "@effect/vitest"
import { DateTime, FastCheck as fc } from "effect"
import { attribute, byPrecedence, makeTally, matcher, type AttributableGroup } from "../../src/usage/Attribution.js"
import { type FilterExpression, UsageGroupId } from "../../src/usage/Domain.js"
import { and, evaluate, leaf, validate } from "../../src/usage/FilterExpression.js"
import { expressionInput, usageRecord } from "./arbitraries.js"
import { right, usage } from "./helpers.js"

const id = (n: number) => UsageGroupId.make(`00000000-0000-4000-8000-${String(n).padStart(12, "0")}`)

const group = (
  n: number,
  filter: FilterExpression,
  order = 0,
  createdAt = "2024-01-01T00:00:00Z"
): AttributableGroup => ({ id: id(n), order, created_at: DateTime.unsafeMake(createdAt), filter_expression: filter })

const etl = and(leaf(["warehouse_name"], "=", "ETL"))
const etlOrBi = and(leaf(["warehouse_name"], "in", ["ETL", "BI"]))
const etlRecord = usage({ warehouse_name: "ETL" })

describe("precedence", () => {
  it("overlapping groups: the lowest order wins, whatever the input order", () => {
    const groups = [group(1, etlOrBi, 5), group(2, etl, 1), group(3, etlOrBi, 3)]
    expect(matcher(groups)(etlRecord)).toBe(id(2))
    expect(matcher([...groups].reverse())(etlRecord)).toBe(id(2))
  })

  it("the same order: the earlier created group wins", () => {
    const groups = [group(1, etl, 1, "2024-03-01T00:00:00Z"), group(2, etl, 1, "2024-02-01T00:00:00Z")]
    expect(matcher(groups)(etlRecord)).toBe(id(2))
  })

  it("the same order and creation time: the smaller id wins", () => {
    const groups = [group(9, etl, 1), group(4, etl, 1)]
    expect(matcher(groups)(etlRecord)).toBe(id(4))
  })

  it("a lower order that does not match leaves the record to the next group", () => {
    const groups = [group(1, etl, 0), group(2, etlOrBi, 1)]
    expect(matcher(groups)(usage({ warehouse_name: "BI" }))).toBe(id(2))
  })

  it("no matching group: unattributed", () => {
    expect(matcher([group(1, etl)])(usage({ warehouse_name: "ML" }))).toBeNull()
    expect(matcher([])(etlRecord)).toBeNull()
  })

  it("byPrecedence sorts by order, then created_at, then id", () => {
    const groups = [
      group(3, etl, 1),
      group(2, etl, 0, "2024-05-01T00:00:00Z"),
      group(1, etl, 0, "2024-06-01T00:00:00Z"),
      group(0, etl, 1)
    ]
    expect([...groups].sort(byPrecedence).map((g) => g.id)).toEqual([id(2), id(1), id(0), id(3)])
  })

  it.prop("picks the first group, in precedence order, whose filter matches", {
    filters: fc.array(expressionInput("organization", 2), { minLength: 1, maxLength: 5 }),
    orders: fc.array(fc.nat(3), { minLength: 5, maxLength: 5 }),
    record: usageRecord
  }, ({ filters, orders, record }) => {
    const groups = filters.map((input, n) => group(n, right(validate(input, "organization")), orders[n]!))
    const expected = [...groups].sort(byPrecedence).find((g) => evaluate(g.filter_expression, record))?.id ?? null
    expect(matcher(groups)(record)).toBe(expected)
  }, { fastCheck: { numRuns: 300 } })
})

describe("attribute", () => {
  const groups = [group(1, etl, 0), group(2, etlOrBi, 1)]

  it("sums credits and records per group and UTC month, unattributed last", () => {
    const records = [
      usage({ warehouse_name: "ETL" }, "2024-05-01T00:00:00Z", 2),
      usage({ warehouse_name: "BI" }, "2024-05-15T00:00:00Z", 3),
      usage({ warehouse_name: "ML" }, "2024-05-20T00:00:00Z", 4),
      usage({ warehouse_name: "ETL" }, "2024-05-31T23:59:59Z", 0.5),
      // 23:30 on May 31st at UTC-2 is June 1st in UTC.
      usage({ warehouse_name: "ETL" }, "2024-05-31T23:30:00-02:00", 1),
      usage({}, "2024-06-02T00:00:00Z", 7)
    ]
    expect(attribute(groups, records)).toEqual([
      { usage_group_id: id(1), month: "2024-05", credits: 2.5, records: 2 },
      { usage_group_id: id(2), month: "2024-05", credits: 3, records: 1 },
      { usage_group_id: null, month: "2024-05", credits: 4, records: 1 },
      { usage_group_id: id(1), month: "2024-06", credits: 1, records: 1 },
      { usage_group_id: null, month: "2024-06", credits: 7, records: 1 }
    ])
  })

  it("orders months chronologically across years", () => {
    const records = [usage({}, "2025-01-03T00:00:00Z"), usage({}, "2024-12-03T00:00:00Z"), usage({}, "2024-02-03T00:00:00Z")]
    expect(attribute([], records).map((t) => t.month)).toEqual(["2024-02", "2024-12", "2025-01"])
  })

  it("consumes any iterable once, such as a generator", () => {
    function* rows() {
      for (let i = 0; i < 1000; i++) yield usage({ warehouse_name: i % 2 === 0 ? "ETL" : "ML" })
    }
    expect(attribute(groups, rows())).toEqual([
      { usage_group_id: id(1), month: "2024-05", credits: 500, records: 500 },
      { usage_group_id: null, month: "2024-05", credits: 500, records: 500 }
    ])
  })

  it("a tally gives running totals as records arrive", () => {
    const tally = makeTally(groups)
    tally.add(usage({ warehouse_name: "BI" }, "2024-05-01T00:00:00Z", 1))
    expect(tally.totals()).toEqual([{ usage_group_id: id(2), month: "2024-05", credits: 1, records: 1 }])
    tally.add(usage({ warehouse_name: "BI" }, "2024-05-02T00:00:00Z", 2))
    expect(tally.totals()).toEqual([{ usage_group_id: id(2), month: "2024-05", credits: 3, records: 2 }])
  })

  it("reads each filter once, however many records there are", () => {
    let reads = 0
    const counted = <T extends object>(value: T): T =>
      new Proxy(value, {
        get: (target, key, receiver) => {
          reads++
          const inner = Reflect.get(target, key, receiver)
          return typeof inner === "object" && inner !== null ? counted(inner) : inner
        }
      })
    const readsFor = (count: number) => {
      reads = 0
      attribute([group(1, counted(etlOrBi))], Array.from({ length: count }, () => etlRecord))
      return reads
    }
    expect(readsFor(1)).toBeGreaterThan(0)
    expect(readsFor(1000)).toBe(readsFor(1))
  })

  it.prop("attributes every credit exactly once", {
    filters: fc.array(expressionInput("organization", 2), { maxLength: 4 }),
    records: fc.array(usageRecord, { maxLength: 50 })
  }, ({ filters, records }) => {
    const totals = attribute(filters.map((input, n) => group(n, right(validate(input, "organization")))), records)
    expect(totals.reduce((sum, t) => sum + t.records, 0)).toBe(records.length)
    expect(totals.reduce((sum, t) => sum + t.credits, 0)).toBeCloseTo(records.reduce((sum, r) => sum + r.credits, 0), 6)
  }, { fastCheck: { numRuns: 200 } })
})
