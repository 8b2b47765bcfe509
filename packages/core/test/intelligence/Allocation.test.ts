import { describe, expect, it } from "@effect/vitest"
import { FastCheck as fc } from "effect"
import { executionSpan, HOUR_MS, makeLedger, unionLength } from "../../src/intelligence/Allocation.js"
import type { MeteringRow, QueryRow } from "../../src/intelligence/Exports.js"

const T0 = Date.parse("2024-03-01T00:00:00Z")

const hour = (warehouse: string, index: number, compute: number, extra: Partial<MeteringRow> = {}): MeteringRow => ({
  start: T0 + index * HOUR_MS,
  end: T0 + (index + 1) * HOUR_MS,
  warehouseId: null,
  warehouse,
  creditsUsed: null,
  compute,
  cloudServices: null,
  attributedToQueries: null,
  ...extra
})

const query = (id: string, warehouse: string | null, endOffsetMs: number, executionMs: number, extra: Partial<QueryRow> = {}): QueryRow => ({
  queryId: id,
  queryText: null,
  queryType: null,
  database: null,
  schema: null,
  user: null,
  role: null,
  warehouse,
  warehouseSize: null,
  queryTag: null,
  status: null,
  start: T0 + endOffsetMs - executionMs - 1000,
  end: T0 + endOffsetMs,
  totalElapsedMs: null,
  executionMs,
  compilationMs: null,
  queuedProvisioningMs: null,
  queuedOverloadMs: null,
  bytesScanned: null,
  cacheFraction: null,
  bytesSpilledLocal: null,
  bytesSpilledRemote: null,
  partitionsScanned: null,
  partitionsTotal: null,
  rowsProduced: null,
  parameterizedHash: null,
  ...extra
})

const ledgerOf = (hours: ReadonlyArray<MeteringRow>, queries: ReadonlyArray<QueryRow>, attributed?: Map<string, number>) => {
  const ledger = makeLedger({ attribution: attributed !== undefined })
  hours.forEach(ledger.addHour)
  queries.forEach((q) => ledger.addQuery(q, attributed?.get(q.queryId)))
  ledger.finalize()
  return { ledger, credits: new Map(queries.map((q) => [q.queryId, ledger.creditsOf(q, attributed?.get(q.queryId))])) }
}

describe("allocation", () => {
  it("queries share the busy part of the warehouse's running time by execution time; the rest is idle", () => {
    // X-Small (1 credit/hour) metered 0.5 credits: it ran 30 minutes; queries kept it busy 15 of them.
    const { credits, ledger } = ledgerOf([hour("WH", 0, 0.5)], [
      query("a", "WH", 10 * 60_000, 10 * 60_000, { warehouseSize: "X-Small" }),
      query("b", "WH", 20 * 60_000, 5 * 60_000, { warehouseSize: "X-Small" })
    ])
    expect(credits.get("a")).toBeCloseTo(0.25 * 2 / 3, 12)
    expect(credits.get("b")).toBeCloseTo(0.25 / 3, 12)
    expect([...ledger.hours()][0]!.idle).toBeCloseTo(0.25, 12)
  })

  it("overlapping queries count their busy time once, and split it by execution time", () => {
    const { credits, ledger } = ledgerOf([hour("WH", 0, 1)], [
      query("a", "WH", 30 * 60_000, 30 * 60_000),
      query("b", "WH", 30 * 60_000, 30 * 60_000)
    ])
    // No size: the running time is the metered hour; busy 30 of 60 minutes.
    expect(credits.get("a")).toBeCloseTo(0.25, 12)
    expect([...ledger.hours()][0]!.busyMs).toBe(30 * 60_000)
  })

  it("a query across two hours is priced in each by its part of the hour", () => {
    const { credits } = ledgerOf([hour("WH", 0, 1), hour("WH", 1, 2)], [query("a", "WH", HOUR_MS + 30 * 60_000, 60 * 60_000)])
    expect(credits.get("a")).toBeCloseTo(0.5 + 1, 12)
  })

  it("CREDITS_ATTRIBUTED_COMPUTE_QUERIES sets the queries' share of the hour", () => {
    const { credits, ledger } = ledgerOf([hour("WH", 0, 4, { attributedToQueries: 3 })], [query("a", "WH", 60_000, 1000)])
    expect(credits.get("a")).toBe(3)
    expect([...ledger.hours()][0]!.idle).toBe(1)
  })

  it("QUERY_ATTRIBUTION_HISTORY wins: each query gets its attributed credits", () => {
    const { credits, ledger } = ledgerOf(
      [hour("WH", 0, 4)],
      [query("a", "WH", 60_000, 1000), query("b", "WH", 120_000, 50_000)],
      new Map([["a", 1.5], ["b", 0.5]])
    )
    expect(credits.get("a")).toBeCloseTo(1.5, 12)
    expect(credits.get("b")).toBeCloseTo(0.5, 12)
    expect([...ledger.hours()][0]!.idle).toBeCloseTo(2, 12)
  })

  it("queries without a warehouse or outside metered hours cost nothing", () => {
    const { credits } = ledgerOf([hour("WH", 0, 1)], [query("a", null, 60_000, 1000), query("b", "WH", 3 * HOUR_MS, 1000)])
    expect(credits.get("a")).toBe(0)
    expect(credits.get("b")).toBe(0)
  })

  it("an execution span never starts before the query", () => {
    expect(executionSpan({ start: 10, end: 20, executionMs: 50 })).toEqual([10, 20])
    expect(unionLength([0, 10, 5, 15, 20, 30, 21, 22])).toBe(25)
  })

  it("the busy time is the length of the union of the execution intervals, whatever their order and overlaps", () => {
    // By definition: the integer points of [0, 100) that some interval [from, to) covers.
    const covered = (pairs: ReadonlyArray<readonly [number, number]>) => {
      let count = 0
      for (let x = 0; x < 100; x++) if (pairs.some(([from, to]) => from <= x && x < to)) count++
      return count
    }
    const pair = fc.tuple(fc.integer({ min: 0, max: 99 }), fc.integer({ min: 0, max: 40 })).map(([from, length]) =>
      [from, Math.min(100, from + length)] as const
    )
    fc.assert(fc.property(fc.array(pair, { maxLength: 30 }), (pairs) => {
      const flat = pairs.flat()
      expect(unionLength(flat)).toBe(covered(pairs))
      // Only the first `length` values count (the rest of a typed array's capacity).
      expect(unionLength([...flat, 0, 1000], flat.length)).toBe(covered(pairs))
    }))
  })

  // Conservation: whatever the hours, queries and attribution, per hour and in total
  // allocations + idle = metered compute (to 1e-9 relative), and nothing is negative.
  const arbitraryInput = fc.record({
    hours: fc.array(
      fc.record({
        warehouse: fc.constantFrom("A", "B"),
        index: fc.integer({ min: 0, max: 5 }),
        compute: fc.double({ min: 0, max: 64, noNaN: true }),
        attributed: fc.option(fc.double({ min: 0, max: 80, noNaN: true }), { nil: null })
      }),
      { maxLength: 12 }
    ),
    queries: fc.array(
      fc.record({
        warehouse: fc.constantFrom("A", "B", null),
        end: fc.integer({ min: 0, max: 7 * HOUR_MS }),
        execution: fc.integer({ min: 0, max: 3 * HOUR_MS }),
        size: fc.constantFrom(null, "X-Small", "Large", "Unknown"),
        attributed: fc.double({ min: 0, max: 10, noNaN: true })
      }),
      { maxLength: 40 }
    ),
    useAttribution: fc.boolean()
  })

  it("allocated + idle = metered, per hour and in total", () => {
    fc.assert(fc.property(arbitraryInput, (input) => {
      const hours = input.hours.map((h) => hour(h.warehouse, h.index, h.compute, { attributedToQueries: h.attributed }))
      const queries = input.queries.map((q, i) =>
        query(`q${i}`, q.warehouse, q.end, Math.min(q.execution, q.end), { warehouseSize: q.size })
      )
      const attributed = input.useAttribution ? new Map(input.queries.map((q, i) => [`q${i}`, q.attributed])) : undefined
      const { credits, ledger } = ledgerOf(hours, queries, attributed)
      let metered = 0
      let idle = 0
      for (const h of ledger.hours()) {
        metered += h.compute
        idle += h.idle
        expect(h.idle).toBeGreaterThanOrEqual(0)
        expect(Math.abs(h.queriesShare + h.idle - h.compute)).toBeLessThanOrEqual(1e-9 * Math.max(1, h.compute))
      }
      const allocated = [...credits.values()].reduce((a, b) => a + b, 0)
      for (const c of credits.values()) expect(c).toBeGreaterThanOrEqual(0)
      expect(Math.abs(allocated + idle - metered)).toBeLessThanOrEqual(1e-9 * Math.max(1, metered))
    }), { numRuns: 500 })
  })
})
