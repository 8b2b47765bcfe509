/**
 * Per-query cost: each metered warehouse-hour's compute credits shared among the queries that
 * executed in it, the rest being that hour's idle cost. Pure and in two steps, because the share
 * of one query depends on every other query of its hours:
 *
 * 1. `addHour` every metering row, then `addQuery` every query (execution intervals and weights);
 * 2. `finalize`, then `creditsOf` each query and `hours()` for the idle of each hour.
 *
 * Per hour (see docs/cost-intelligence.md, "Allocation"):
 * - a query executes over [END_TIME - EXECUTION_TIME, END_TIME]; its weight in an hour is its
 *   execution time inside the hour (or, with QUERY_ATTRIBUTION_HISTORY, its attributed credits
 *   spread over its execution time the same way);
 * - the queries' share of the hour is, in order of preference: the sum of the attributed credits
 *   (QUERY_ATTRIBUTION_HISTORY); the hour's CREDITS_ATTRIBUTED_COMPUTE_QUERIES; or the compute
 *   credits × the busy fraction of the warehouse's running time (busy = union of execution
 *   intervals; running time = compute credits / the size's credits per hour), each at most the
 *   hour's compute credits;
 * - each query gets share × weight / total weight; idle = compute - share. So an hour's
 *   allocations plus its idle are its metered compute credits, whatever the inputs.
 *
 * Only the memory for the hours and, until `finalize`, the execution intervals is held: queries
 * themselves are streamed past twice.
 */
import { creditsPerHour } from "../warehouse/WarehouseSize.js"
import type { MeteringRow, QueryRow } from "./Exports.js"

/**
 * @since 0.1.0
 * @category constants
 */
export const HOUR_MS = 3_600_000

/**
 * @since 0.1.0
 * @category models
 */
export interface HourState {
  readonly warehouse: string
  readonly start: number
  readonly end: number
  compute: number
  attributedToQueries: number | null
  /**
   * Execution intervals as flat [from, to, from, to, ...] pairs in the first `spans` × 2 slots,
   * dropped by `finalize`: a typed array, outside the garbage-collected heap (a million queries
   * are 16 MB the collector never scans or copies as the arrays grow).
   */
  intervals: Float64Array
  spans: number
  /** Sum of the weights of the hour's queries. */
  weight: number
  /** The size the hour's last query reported, if any. */
  size: string | null
  queries: number
  /** Set by `finalize`. */
  busyMs: number
  queriesShare: number
  idle: number
}

interface Warehouse {
  /** Where this warehouse's hours start, as an offset from whole UTC hours (time zones of :30, :45). */
  phase: number
  readonly hours: Map<number, HourState>
}

/**
 * The execution interval of a query: EXECUTION_TIME ends at END_TIME.
 * @since 0.1.0
 * @category utils
 */
export const executionSpan = (query: Pick<QueryRow, "start" | "end" | "executionMs">): readonly [number, number] => {
  const execution = Math.min(Math.max(0, query.executionMs ?? 0), query.end - query.start)
  return [query.end - execution, query.end]
}

/**
 * Length of the union of the first `length` / 2 flat [from, to] pairs (from <= to). The starts and
 * the ends are sorted apart (two typed arrays, no object per pair): a point is covered while more
 * starts than ends lie at or before it.
 * @since 0.1.0
 * @category utils
 */
export const unionLength = (intervals: ArrayLike<number>, length = intervals.length): number => {
  const n = length >> 1
  if (n === 0) return 0
  const starts = new Float64Array(n)
  const ends = new Float64Array(n)
  for (let i = 0; i < n; i++) {
    starts[i] = intervals[2 * i]!
    ends[i] = intervals[2 * i + 1]!
  }
  starts.sort()
  ends.sort()
  let total = 0
  let active = 0
  let from = 0
  let j = 0
  for (let i = 0; i < n; i++) {
    const start = starts[i]!
    // Ends at or before this start close what was open (an end equal to a start joins them either way).
    while (ends[j]! < start) {
      active--
      j++
      if (active === 0) total += ends[j - 1]! - from
    }
    if (active === 0) from = start
    active++
  }
  // Every start is in: the coverage ends at the last end.
  return total + ends[n - 1]! - from
}

const NO_INTERVALS = new Float64Array(0)

/**
 * @since 0.1.0
 * @category models
 */
export interface Ledger {
  readonly addHour: (row: MeteringRow) => void
  /** `attributed`: the query's credits from QUERY_ATTRIBUTION_HISTORY, when that export is used. */
  readonly addQuery: (query: QueryRow, attributed?: number) => void
  readonly finalize: () => void
  readonly creditsOf: (query: QueryRow, attributed?: number) => number
  readonly hours: () => Iterable<HourState>
  readonly hourCount: () => number
}

/**
 * @since 0.1.0
 * @category models
 */
export interface LedgerOptions {
  /** True when QUERY_ATTRIBUTION_HISTORY was given: weights are attributed credits. */
  readonly attribution: boolean
}

/**
 * @since 0.1.0
 * @category constructors
 */
export const makeLedger = (options: LedgerOptions): Ledger => {
  const warehouses = new Map<string, Warehouse>()

  const addHour = (row: MeteringRow) => {
    let warehouse = warehouses.get(row.warehouse)
    if (warehouse === undefined) {
      warehouse = { phase: ((row.start % HOUR_MS) + HOUR_MS) % HOUR_MS, hours: new Map() }
      warehouses.set(row.warehouse, warehouse)
    }
    // The same hour twice (overlapping exports): the later row is the vendor's later word.
    const existing = warehouse.hours.get(row.start)
    if (existing !== undefined) {
      existing.compute = row.compute
      existing.attributedToQueries = row.attributedToQueries
      return
    }
    warehouse.hours.set(row.start, {
      warehouse: row.warehouse,
      start: row.start,
      end: row.end,
      compute: row.compute,
      attributedToQueries: row.attributedToQueries,
      intervals: NO_INTERVALS,
      spans: 0,
      weight: 0,
      size: null,
      queries: 0,
      busyMs: 0,
      queriesShare: 0,
      idle: row.compute
    })
  }

  /** Calls `each` with every metered hour the interval [from, to) overlaps and the overlap. */
  const overlapping = (name: string, from: number, to: number, each: (hour: HourState, overlap: number) => void) => {
    const warehouse = warehouses.get(name)
    if (warehouse === undefined || to <= from) return
    const first = Math.floor((from - warehouse.phase) / HOUR_MS) * HOUR_MS + warehouse.phase
    for (let start = first; start < to; start += HOUR_MS) {
      const hour = warehouse.hours.get(start)
      if (hour === undefined) continue
      const overlap = Math.min(to, hour.end) - Math.max(from, hour.start)
      if (overlap > 0) each(hour, overlap)
    }
  }

  const weightOf = (overlap: number, length: number, attributed: number | undefined) =>
    options.attribution ? (attributed ?? 0) * overlap / length : overlap

  const addQuery = (query: QueryRow, attributed?: number) => {
    if (query.warehouse === null) return
    const [from, to] = executionSpan(query)
    overlapping(query.warehouse, from, to, (hour, overlap) => {
      if (2 * hour.spans + 2 > hour.intervals.length) {
        const grown = new Float64Array(Math.max(16, 2 * hour.intervals.length))
        grown.set(hour.intervals)
        hour.intervals = grown
      }
      hour.intervals[2 * hour.spans] = Math.max(from, hour.start)
      hour.intervals[2 * hour.spans + 1] = Math.min(to, hour.end)
      hour.spans++
      hour.weight += weightOf(overlap, to - from, attributed)
      hour.queries++
      if (query.warehouseSize !== null) hour.size = query.warehouseSize
    })
  }

  const finalizeHour = (hour: HourState) => {
    hour.busyMs = unionLength(hour.intervals, 2 * hour.spans)
    hour.intervals = NO_INTERVALS
    hour.spans = 0
    let share: number
    if (hour.weight <= 0) share = 0
    else if (options.attribution) share = hour.weight
    else if (hour.attributedToQueries !== null) share = hour.attributedToQueries
    else {
      const rate = hour.size === null ? undefined : creditsPerHour(hour.size)
      const running = rate === undefined || rate <= 0 ? hour.end - hour.start : hour.compute / rate * HOUR_MS
      share = running <= 0 ? hour.compute : hour.compute * Math.min(1, hour.busyMs / running)
    }
    hour.queriesShare = Math.min(hour.compute, Math.max(0, share))
    hour.idle = hour.compute - hour.queriesShare
  }

  function* hours() {
    for (const warehouse of warehouses.values()) yield* warehouse.hours.values()
  }

  return {
    addHour,
    addQuery,
    finalize: () => {
      for (const hour of hours()) finalizeHour(hour)
    },
    creditsOf: (query, attributed) => {
      if (query.warehouse === null) return 0
      const [from, to] = executionSpan(query)
      let credits = 0
      overlapping(query.warehouse, from, to, (hour, overlap) => {
        if (hour.weight > 0) credits += hour.queriesShare * weightOf(overlap, to - from, attributed) / hour.weight
      })
      return credits
    },
    hours,
    hourCount: () => {
      let count = 0
      for (const warehouse of warehouses.values()) count += warehouse.hours.size
      return count
    }
  }
}
