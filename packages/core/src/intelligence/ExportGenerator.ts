/**
 * Realistic account-usage exports with planted problems and clean controls, for tests, the bench
 * and the demo. Rows come out as the vendor's unload writes them: upper-case columns, timestamps
 * printed in the account's time zone with its offset, query text with commas, quotes and line
 * breaks, empty cells for nulls, and extra columns (`SESSION_ID`, `QUERY_HASH`) that a `SELECT *`
 * export carries.
 *
 * Every hour is built so its cost is known without running the allocation: its queries execute
 * one after another, and its compute credits are the size's rate × busy time / (1 - idle
 * fraction). So each query costs rate × execution hours, and each hour's idle is its compute ×
 * the idle fraction: the expected savings of every planted problem follow from the plan alone.
 * This module is dependency-free (no vitest), so the bench and the CLI demo may use it.
 * @since 0.1.0
 * @category constants
 */

export const HOUR = 3_600_000
/**
 * @since 0.1.0
 * @category constants
 */
export const DAY = 24 * HOUR
const GIB = 1024 ** 3

/**
 * @since 0.1.0
 * @category models
 */
export interface GeneratorOptions {
  /** Days of history; the first starts at `start` (midnight in the account's zone). */
  readonly days: number
  /** Clean control warehouses (X-Small, busy every hour, no problem). */
  readonly controls: number
  /** Extra clean queries per control warehouse-hour: scales the export (1 for tests). */
  readonly controlQueriesPerHour?: number
  /** Midnight UTC of the first day, shifted by the offset; 2024-03-01 by default. */
  readonly start?: Date
  /** The account's UTC offset in minutes, printed in every timestamp; -480 (PST) by default. */
  readonly offsetMinutes?: number
}

/**
 * @since 0.1.0
 * @category models
 */
export interface PlantedProblem {
  readonly insight_type: string
  readonly resource_id: string
  /** Credits per 30-day month; null where the detector reports none (queueing). */
  readonly potential_savings: number | null
}

interface QuerySpec {
  readonly execMs: number
  readonly bytes: number
  readonly queuedMs?: number
  readonly spillLocal?: number
  readonly spillRemote?: number
  readonly partitionsScanned?: number
  readonly partitionsTotal?: number
  readonly hash?: string | null
  readonly text?: string
  readonly user?: string
}

interface WarehousePlan {
  readonly name: string
  readonly size: string
  readonly rate: number
  readonly idleFraction: number
  /** The queries of day `day`, hour `hour`; empty means the warehouse is suspended that hour. */
  readonly queries: (day: number, hour: number) => ReadonlyArray<QuerySpec>
}

/**
 * @since 0.1.0
 * @category constants
 */
export const PLANTED_HASHES = {
  remoteSpill: "9f1c0e0remote",
  localSpill: "7a2b1d3local",
  pruning: "5c4e2f1prune",
  repeated: "3d9a7b6repeat"
} as const

const range = (from: number, to: number) => (hour: number) => hour >= from && hour <= to

const normal = (user: string, n: number): QuerySpec => ({
  execMs: 60_000,
  bytes: 2 * GIB,
  partitionsScanned: 100,
  partitionsTotal: 2000,
  hash: null,
  text: `SELECT region, SUM(amount)\nFROM sales.orders -- "daily", 'report'\nWHERE batch = ${n}\nGROUP BY region`,
  user
})

const plans = (options: GeneratorOptions): ReadonlyArray<WarehousePlan> => {
  const perHour = options.controlQueriesPerHour ?? 1
  const controls: Array<WarehousePlan> = Array.from({ length: options.controls }, (_, i) => ({
    name: `CTRL_${String(i + 1).padStart(2, "0")}_WH`,
    size: "X-Small",
    rate: 1,
    idleFraction: 0.05,
    queries: () => Array.from({ length: perHour }, (_, n) => ({ ...normal("ANALYST", n), execMs: Math.floor(50_000 / perHour) + 1000 }))
  }))
  return [
    {
      name: "IDLE_WH",
      size: "Medium",
      rate: 4,
      idleFraction: 0.75,
      queries: (_, hour) => (range(8, 20)(hour) ? [{ ...normal("LOADER", hour), execMs: 15 * 60_000 }] : [])
    },
    {
      name: "OVERSIZED_WH",
      size: "Large",
      rate: 8,
      idleFraction: 0.05,
      queries: (_, hour) =>
        range(9, 18)(hour)
          ? Array.from({ length: 60 }, (_, n) => ({ ...normal("DASHBOARD", n), execMs: 5_000, bytes: 100 * 1024 ** 2 }))
          : []
    },
    {
      name: "QUEUED_WH",
      size: "Small",
      rate: 2,
      idleFraction: 0.05,
      queries: (_, hour) =>
        range(9, 18)(hour) ? Array.from({ length: 30 }, (_, n) => ({ ...normal("BI", n), execMs: 20_000, queuedMs: 30_000 })) : []
    },
    {
      name: "ETL_WH",
      size: "Medium",
      rate: 4,
      idleFraction: 0.05,
      queries: (day, hour) => {
        const planted: Array<QuerySpec> = []
        if (day < 10 && hour === 2) {
          planted.push({
            ...normal("ETL", 0),
            execMs: 30 * 60_000,
            spillRemote: 5 * GIB,
            spillLocal: 0,
            hash: PLANTED_HASHES.remoteSpill,
            text: "INSERT INTO facts SELECT * FROM a JOIN b USING (id)"
          })
        }
        if (day < 10 && hour === 3) {
          planted.push({ ...normal("ETL", 0), execMs: 20 * 60_000, spillLocal: 3 * GIB, hash: PLANTED_HASHES.localSpill })
        }
        if (day < 10 && hour === 4) {
          planted.push({
            ...normal("ETL", 0),
            execMs: 15 * 60_000,
            partitionsScanned: 4500,
            partitionsTotal: 5000,
            hash: PLANTED_HASHES.pruning
          })
        }
        return [...planted, ...Array.from({ length: 4 }, (_, n) => ({ ...normal("ETL", n), execMs: 120_000 }))]
      }
    },
    {
      name: "REPORTS_WH",
      size: "Small",
      rate: 2,
      idleFraction: 0.05,
      queries: (_, hour) => [
        ...(range(8, 17)(hour) ? [{ ...normal("APP", 0), execMs: 30_000, hash: PLANTED_HASHES.repeated }] : []),
        ...Array.from({ length: 2 }, (_, n) => normal("APP", n))
      ]
    },
    ...controls
  ]
}

const pad = (n: number, width = 2) => String(n).padStart(width, "0")

/**
 * `2024-03-01 08:15:00.000 -0800`: the vendor's default TIMESTAMP_LTZ output.
 * @since 0.1.0
 * @category utils
 */
export const formatTimestamp = (at: number, offsetMinutes: number): string => {
  const local = new Date(at + offsetMinutes * 60_000)
  const sign = offsetMinutes < 0 ? "-" : "+"
  const abs = Math.abs(offsetMinutes)
  return `${local.getUTCFullYear()}-${pad(local.getUTCMonth() + 1)}-${pad(local.getUTCDate())} ` +
    `${pad(local.getUTCHours())}:${pad(local.getUTCMinutes())}:${pad(local.getUTCSeconds())}.${pad(local.getUTCMilliseconds(), 3)} ` +
    `${sign}${pad(Math.floor(abs / 60))}${pad(abs % 60)}`
}

/**
 * @since 0.1.0
 * @category models
 */
export type ExportRowObject = Record<string, string | number | null>

/**
 * @since 0.1.0
 * @category constants
 */
export const METERING_HEADER = [
  "START_TIME",
  "END_TIME",
  "WAREHOUSE_ID",
  "WAREHOUSE_NAME",
  "CREDITS_USED",
  "CREDITS_USED_COMPUTE",
  "CREDITS_USED_CLOUD_SERVICES"
]

/**
 * @since 0.1.0
 * @category constants
 */
export const QUERY_HEADER = [
  "QUERY_ID",
  "QUERY_TEXT",
  "DATABASE_NAME",
  "SCHEMA_NAME",
  "QUERY_TYPE",
  "SESSION_ID",
  "USER_NAME",
  "ROLE_NAME",
  "WAREHOUSE_NAME",
  "WAREHOUSE_SIZE",
  "QUERY_TAG",
  "EXECUTION_STATUS",
  "START_TIME",
  "END_TIME",
  "TOTAL_ELAPSED_TIME",
  "BYTES_SCANNED",
  "PERCENTAGE_SCANNED_FROM_CACHE",
  "ROWS_PRODUCED",
  "COMPILATION_TIME",
  "EXECUTION_TIME",
  "QUEUED_PROVISIONING_TIME",
  "QUEUED_OVERLOAD_TIME",
  "BYTES_SPILLED_TO_LOCAL_STORAGE",
  "BYTES_SPILLED_TO_REMOTE_STORAGE",
  "PARTITIONS_SCANNED",
  "PARTITIONS_TOTAL",
  "QUERY_HASH",
  "QUERY_PARAMETERIZED_HASH"
]

/**
 * @since 0.1.0
 * @category models
 */
export interface GeneratedExports {
  readonly metering: () => Iterable<ExportRowObject>
  readonly queries: () => Iterable<ExportRowObject>
  /** The problems planted, with their savings as the detectors' documented formulas give them. */
  readonly planted: ReadonlyArray<PlantedProblem>
  /** The warehouses that must get no insight. */
  readonly controls: ReadonlyArray<string>
  /** Total metered compute credits, for conservation checks. */
  readonly computeCredits: number
}

const COMPILE_MS = 150

/**
 * @since 0.1.0
 * @category utils
 */
export const generateExports = (options: GeneratorOptions): GeneratedExports => {
  const offset = options.offsetMinutes ?? -480
  const start = (options.start ?? new Date("2024-03-01T00:00:00Z")).getTime() - offset * 60_000
  const warehouses = plans(options)
  const ts = (at: number) => formatTimestamp(at, offset)

  /** Every active hour with its queries laid out one after another. */
  function* hours() {
    for (let day = 0; day < options.days; day++) {
      for (let hour = 0; hour < 24; hour++) {
        for (const [w, plan] of warehouses.entries()) {
          const specs = plan.queries(day, hour)
          if (specs.length === 0) continue
          const hourStart = start + day * DAY + hour * HOUR
          const busy = specs.reduce((sum, spec) => sum + spec.execMs, 0)
          const compute = plan.rate * busy / (1 - plan.idleFraction) / HOUR
          yield { day, hour, w, plan, specs, hourStart, busy, compute }
        }
      }
    }
  }

  const metering = function*() {
    for (const { compute, hourStart, plan, w } of hours()) {
      const cloud = Math.round(compute * 0.03 * 1e9) / 1e9
      yield {
        START_TIME: ts(hourStart),
        END_TIME: ts(hourStart + HOUR),
        WAREHOUSE_ID: String(1000 + w),
        WAREHOUSE_NAME: plan.name,
        CREDITS_USED: compute + cloud,
        CREDITS_USED_COMPUTE: compute,
        CREDITS_USED_CLOUD_SERVICES: cloud
      } satisfies ExportRowObject
    }
  }

  const queries = function*() {
    let id = 0
    for (const { day, hour, hourStart, plan, specs } of hours()) {
      let at = hourStart + 30_000
      for (const spec of specs) {
        id++
        const queued = spec.queuedMs ?? 0
        const execStart = at
        const end = execStart + spec.execMs
        at = end
        yield {
          QUERY_ID: `01b2c3d4-0000-${pad(day, 4)}-${pad(hour, 4)}-${String(id).padStart(12, "0")}`,
          QUERY_TEXT: spec.text ?? `SELECT 1 -- ${plan.name}, "q" ${id}`,
          DATABASE_NAME: "ANALYTICS",
          SCHEMA_NAME: "PUBLIC",
          QUERY_TYPE: spec.text?.startsWith("INSERT") ? "INSERT" : "SELECT",
          SESSION_ID: 42,
          USER_NAME: spec.user ?? "ANALYST",
          ROLE_NAME: "TRANSFORMER",
          WAREHOUSE_NAME: plan.name,
          WAREHOUSE_SIZE: plan.size,
          QUERY_TAG: plan.name === "ETL_WH" ? "dbt" : null,
          EXECUTION_STATUS: "SUCCESS",
          START_TIME: ts(execStart - queued - COMPILE_MS),
          END_TIME: ts(end),
          TOTAL_ELAPSED_TIME: spec.execMs + queued + COMPILE_MS,
          BYTES_SCANNED: spec.bytes,
          PERCENTAGE_SCANNED_FROM_CACHE: 0.25,
          ROWS_PRODUCED: 100,
          COMPILATION_TIME: COMPILE_MS,
          EXECUTION_TIME: spec.execMs,
          QUEUED_PROVISIONING_TIME: 0,
          QUEUED_OVERLOAD_TIME: queued,
          BYTES_SPILLED_TO_LOCAL_STORAGE: spec.spillLocal ?? 0,
          BYTES_SPILLED_TO_REMOTE_STORAGE: spec.spillRemote ?? 0,
          PARTITIONS_SCANNED: spec.partitionsScanned ?? null,
          PARTITIONS_TOTAL: spec.partitionsTotal ?? null,
          QUERY_HASH: `h${id % 97}`,
          QUERY_PARAMETERIZED_HASH: spec.hash ?? null
        } satisfies ExportRowObject
      }
      // A query that used no warehouse (metadata only): priced at nothing, never an error.
      if (hour === 0 && plan.name === "ETL_WH") {
        id++
        yield {
          QUERY_ID: `01b2c3d4-ffff-${pad(day, 4)}-0000-${String(id).padStart(12, "0")}`,
          QUERY_TEXT: "SHOW TABLES",
          DATABASE_NAME: null,
          SCHEMA_NAME: null,
          QUERY_TYPE: "SHOW",
          SESSION_ID: 42,
          USER_NAME: "ETL",
          ROLE_NAME: "TRANSFORMER",
          WAREHOUSE_NAME: null,
          WAREHOUSE_SIZE: null,
          QUERY_TAG: null,
          EXECUTION_STATUS: "SUCCESS",
          START_TIME: ts(hourStart + 1000),
          END_TIME: ts(hourStart + 1100),
          TOTAL_ELAPSED_TIME: 100,
          BYTES_SCANNED: 0,
          PERCENTAGE_SCANNED_FROM_CACHE: 0,
          ROWS_PRODUCED: 10,
          COMPILATION_TIME: 100,
          EXECUTION_TIME: 0,
          QUEUED_PROVISIONING_TIME: 0,
          QUEUED_OVERLOAD_TIME: 0,
          BYTES_SPILLED_TO_LOCAL_STORAGE: 0,
          BYTES_SPILLED_TO_REMOTE_STORAGE: 0,
          PARTITIONS_SCANNED: null,
          PARTITIONS_TOTAL: null,
          QUERY_HASH: null,
          QUERY_PARAMETERIZED_HASH: null
        } satisfies ExportRowObject
      }
    }
  }

  // Expected savings, from the plan and the documented default formulas (30 / days per month).
  const month = 30 / options.days
  const sums = { idle: 0, idleCompute: 0, oversized: 0, remote: 0, local: 0, pruning: 0, repeated: 0, repeatedRuns: 0, compute: 0 }
  for (const { compute, plan, specs } of hours()) {
    sums.compute += compute
    if (plan.name === "IDLE_WH") {
      sums.idle += compute * plan.idleFraction
      sums.idleCompute += compute
    }
    for (const spec of specs) {
      const credits = plan.rate * spec.execMs / HOUR
      if (plan.name === "OVERSIZED_WH") sums.oversized += credits
      if (spec.hash === PLANTED_HASHES.remoteSpill) sums.remote += credits
      if (spec.hash === PLANTED_HASHES.localSpill) sums.local += credits
      if (spec.hash === PLANTED_HASHES.pruning) sums.pruning += credits
      if (spec.hash === PLANTED_HASHES.repeated) {
        sums.repeated += credits
        sums.repeatedRuns++
      }
    }
  }
  const pruneRatio = 4500 / 5000
  const planted: Array<PlantedProblem> = [
    { insight_type: "warehouse_idle", resource_id: "IDLE_WH", potential_savings: (sums.idle - 0.1 * sums.idleCompute) * month },
    { insight_type: "oversized_warehouse", resource_id: "OVERSIZED_WH", potential_savings: sums.oversized * (1 - 2 / 8) * month },
    { insight_type: "queued_warehouse", resource_id: "QUEUED_WH", potential_savings: null },
    { insight_type: "query_remote_spill", resource_id: PLANTED_HASHES.remoteSpill, potential_savings: sums.remote * 0.5 * month },
    { insight_type: "query_local_spill", resource_id: PLANTED_HASHES.localSpill, potential_savings: sums.local * 0.25 * month },
    {
      insight_type: "poor_partition_pruning",
      resource_id: PLANTED_HASHES.pruning,
      potential_savings: sums.pruning * (pruneRatio - 0.1) / pruneRatio * month
    },
    // Planted only when it reaches the default threshold of 100 executions (10 days or more).
    ...(sums.repeatedRuns >= 100
      ? [{
        insight_type: "repeated_query",
        resource_id: PLANTED_HASHES.repeated,
        potential_savings: sums.repeated * (1 - options.days / sums.repeatedRuns) * month
      }]
      : [])
  ]
  return {
    metering,
    queries,
    planted,
    controls: warehouses.filter((plan) => plan.name.startsWith("CTRL_")).map((plan) => plan.name),
    computeCredits: sums.compute
  }
}

// ---------------------------------------------------------------------------------------------
// Writers: CSV as an unload with HEADER = TRUE and FIELD_OPTIONALLY_ENCLOSED_BY = '"', or JSON Lines.

const csvCell = (value: string | number | null | undefined): string => {
  if (value === null || value === undefined) return ""
  const text = String(value)
  return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, "\"\"")}"` : text
}

/**
 * @since 0.1.0
 * @category utils
 */
export function* csvLines(header: ReadonlyArray<string>, rows: Iterable<ExportRowObject>): Generator<string> {
  yield `${header.join(",")}\n`
  for (const row of rows) yield `${header.map((column) => csvCell(row[column])).join(",")}\n`
}

/**
 * @since 0.1.0
 * @category utils
 */
export function* jsonLines(rows: Iterable<ExportRowObject>): Generator<string> {
  for (const row of rows) yield `${JSON.stringify(row)}\n`
}

/**
 * @since 0.1.0
 * @category utils
 */
export const toCsv = (header: ReadonlyArray<string>, rows: Iterable<ExportRowObject>) => [...csvLines(header, rows)].join("")
/**
 * @since 0.1.0
 * @category utils
 */
export const toJsonLines = (rows: Iterable<ExportRowObject>) => [...jsonLines(rows)].join("")
