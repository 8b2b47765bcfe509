/**
 * The warehouse's account-usage exports, as its own unload writes them: which columns each view
 * must have, what each holds, and one row (a JSON object, or a CSV record made into one) → a
 * typed row, or the problems that keep it from being one. Pure; reading files is ExportFile's.
 *
 * Units as the vendor documents them (docs/cost-intelligence.md cites the pages): durations are
 * milliseconds, bytes are bytes, `PERCENTAGE_SCANNED_FROM_CACHE` is a fraction 0-1, credits are
 * decimal credits. Timestamps are TIMESTAMP_LTZ printed with their offset (`2024-03-10 01:30:00.000
 * -0800`), so an hour repeated when daylight saving ends is two distinct instants.
 */
import { Either } from "effect"
import { makeTimestampReader } from "../usage/internal/Timestamp.js"

/**
 * @since 0.1.0
 * @category models
 */
export type ExportKind = "metering" | "queries" | "attribution"

/**
 * The view each export is read from, as it names itself in messages.
 * @since 0.1.0
 * @category constants
 */
export const VIEW_NAMES: Readonly<Record<ExportKind, string>> = {
  metering: "WAREHOUSE_METERING_HISTORY",
  queries: "QUERY_HISTORY",
  attribution: "QUERY_ATTRIBUTION_HISTORY"
}

type Kind = "text" | "number" | "timestamp"

interface ColumnSpec {
  readonly name: string
  readonly kind: Kind
  /** The header must name it (every listed column is in the views the issue names). */
  readonly inHeader: boolean
  /** A row must have a value in it. */
  readonly notNull: boolean
}

const col = (name: string, kind: Kind, options: { inHeader?: boolean; notNull?: boolean } = {}): ColumnSpec => ({
  name,
  kind,
  inHeader: options.inHeader ?? true,
  notNull: options.notNull ?? false
})

/**
 * @since 0.1.0
 * @category constants
 */
export const METERING_COLUMNS: ReadonlyArray<ColumnSpec> = [
  col("START_TIME", "timestamp", { notNull: true }),
  col("END_TIME", "timestamp", { notNull: true }),
  col("WAREHOUSE_ID", "text"),
  col("WAREHOUSE_NAME", "text", { notNull: true }),
  col("CREDITS_USED", "number"),
  col("CREDITS_USED_COMPUTE", "number", { notNull: true }),
  col("CREDITS_USED_CLOUD_SERVICES", "number"),
  // Added to the view in 2024; older exports lack it.
  col("CREDITS_ATTRIBUTED_COMPUTE_QUERIES", "number", { inHeader: false })
]

/**
 * @since 0.1.0
 * @category constants
 */
export const QUERY_COLUMNS: ReadonlyArray<ColumnSpec> = [
  col("QUERY_ID", "text", { notNull: true }),
  col("QUERY_TEXT", "text"),
  col("QUERY_TYPE", "text"),
  col("DATABASE_NAME", "text"),
  col("SCHEMA_NAME", "text"),
  col("USER_NAME", "text"),
  col("ROLE_NAME", "text"),
  col("WAREHOUSE_NAME", "text"),
  col("WAREHOUSE_SIZE", "text"),
  col("QUERY_TAG", "text"),
  col("EXECUTION_STATUS", "text"),
  col("START_TIME", "timestamp", { notNull: true }),
  col("END_TIME", "timestamp", { notNull: true }),
  col("TOTAL_ELAPSED_TIME", "number"),
  col("EXECUTION_TIME", "number"),
  col("COMPILATION_TIME", "number"),
  col("QUEUED_PROVISIONING_TIME", "number"),
  col("QUEUED_OVERLOAD_TIME", "number"),
  col("BYTES_SCANNED", "number"),
  col("PERCENTAGE_SCANNED_FROM_CACHE", "number"),
  col("BYTES_SPILLED_TO_LOCAL_STORAGE", "number"),
  col("BYTES_SPILLED_TO_REMOTE_STORAGE", "number"),
  col("PARTITIONS_SCANNED", "number"),
  col("PARTITIONS_TOTAL", "number"),
  col("ROWS_PRODUCED", "number"),
  col("QUERY_PARAMETERIZED_HASH", "text")
]

/**
 * @since 0.1.0
 * @category constants
 */
export const ATTRIBUTION_COLUMNS: ReadonlyArray<ColumnSpec> = [
  col("QUERY_ID", "text", { notNull: true }),
  col("WAREHOUSE_NAME", "text"),
  col("START_TIME", "timestamp"),
  col("END_TIME", "timestamp"),
  col("CREDITS_ATTRIBUTED_COMPUTE", "number", { notNull: true })
]

/**
 * @since 0.1.0
 * @category constants
 */
export const COLUMNS: Readonly<Record<ExportKind, ReadonlyArray<ColumnSpec>>> = {
  metering: METERING_COLUMNS,
  queries: QUERY_COLUMNS,
  attribution: ATTRIBUTION_COLUMNS
}

/**
 * The columns a header must name; the first missing one is reported by name.
 * @since 0.1.0
 * @category utils
 */
export const headerColumns = (kind: ExportKind): ReadonlyArray<string> =>
  COLUMNS[kind].filter((c) => c.inHeader).map((c) => c.name)

// ---------------------------------------------------------------------------------------------
// Typed rows. Instants are epoch milliseconds: the allocation does arithmetic on them, millions of
// times, and never needs a Date.

/**
 * @since 0.1.0
 * @category models
 */
export interface MeteringRow {
  readonly start: number
  readonly end: number
  readonly warehouseId: string | null
  readonly warehouse: string
  readonly creditsUsed: number | null
  readonly compute: number
  readonly cloudServices: number | null
  /** Credits of the hour the vendor itself attributes to queries (idle excluded), when exported. */
  readonly attributedToQueries: number | null
}

/**
 * @since 0.1.0
 * @category models
 */
export interface QueryRow {
  readonly queryId: string
  readonly queryText: string | null
  readonly queryType: string | null
  readonly database: string | null
  readonly schema: string | null
  readonly user: string | null
  readonly role: string | null
  readonly warehouse: string | null
  readonly warehouseSize: string | null
  readonly queryTag: string | null
  readonly status: string | null
  readonly start: number
  readonly end: number
  readonly totalElapsedMs: number | null
  readonly executionMs: number | null
  readonly compilationMs: number | null
  readonly queuedProvisioningMs: number | null
  readonly queuedOverloadMs: number | null
  readonly bytesScanned: number | null
  readonly cacheFraction: number | null
  readonly bytesSpilledLocal: number | null
  readonly bytesSpilledRemote: number | null
  readonly partitionsScanned: number | null
  readonly partitionsTotal: number | null
  readonly rowsProduced: number | null
  readonly parameterizedHash: string | null
}

/**
 * @since 0.1.0
 * @category models
 */
export interface AttributionRow {
  readonly queryId: string
  readonly warehouse: string | null
  readonly credits: number
}

/**
 * @since 0.1.0
 * @category models
 */
export type RowOf<K extends ExportKind> = K extends "metering" ? MeteringRow
  : K extends "queries" ? QueryRow
  : AttributionRow

// ---------------------------------------------------------------------------------------------
// Cells → values. A million rows go through here: no intermediate object per cell, and a CSV row
// is read from its fields by position (the header's index of each column, found once).

const DECIMAL = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/

type Cell = string | number | null

/** What keeps a cell from being a value (a class, so it cannot be mistaken for one). */
class CellProblem {
  constructor(readonly message: string) {}
}

/** Timestamps repeat their hour and offset across thousands of rows; see makeTimestampReader. */
const readTimestamp = makeTimestampReader()

const readCell = (spec: ColumnSpec, raw: unknown): Cell | CellProblem => {
  if (raw === undefined || raw === null || raw === "") return null
  switch (spec.kind) {
    case "text":
      return typeof raw === "string" ? raw
        : typeof raw === "number" ? String(raw)
        : new CellProblem(`${spec.name} must be text`)
    case "number": {
      // NUMBER(38, s) may come out of a JSON unload as a string to keep its precision.
      const value = typeof raw === "number" ? raw : typeof raw === "string" && DECIMAL.test(raw.trim()) ? Number(raw) : NaN
      return Number.isFinite(value) ? value : new CellProblem(`${spec.name} must be a number, not ${JSON.stringify(raw)}`)
    }
    case "timestamp": {
      const instant = typeof raw === "string" ? readTimestamp(raw) : undefined
      return instant === undefined
        ? new CellProblem(`${spec.name} must be a timestamp such as 2024-05-01 12:00:00.000 -0700, not ${JSON.stringify(raw)}`)
        : instant
    }
  }
}

/** The value of each column of the view, in COLUMNS order. */
type Cells = ReadonlyArray<Cell>

/** Position of each column of a view in its Cells. */
const positions = (kind: ExportKind): Readonly<Record<string, number>> =>
  Object.fromEntries(COLUMNS[kind].map((spec, i) => [spec.name, i]))
const M = positions("metering")
const Q = positions("queries")
const A = positions("attribution")

/** Marks a column the row lacks (a JSON object without the key; never a CSV field). */
const ABSENT = Symbol("absent")

/** Reads every column of the view, `raw(i)` giving the i-th column's raw value or ABSENT. */
const readCells = (kind: ExportKind, raw: (i: number) => unknown): Either.Either<Cells, string> => {
  const specs = COLUMNS[kind]
  const cells: Array<Cell> = new Array(specs.length)
  let problems: Array<string> | undefined
  for (let i = 0; i < specs.length; i++) {
    const spec = specs[i]!
    const value = raw(i)
    if (value === ABSENT && spec.inHeader) {
      ;(problems ??= []).push(`missing column ${spec.name}`)
      continue
    }
    const cell = readCell(spec, value === ABSENT ? undefined : value)
    if (cell instanceof CellProblem) (problems ??= []).push(cell.message)
    else if (cell === null && spec.notNull) (problems ??= []).push(`${spec.name} is required`)
    else cells[i] = cell
  }
  return problems !== undefined ? Either.left(problems.join("; ")) : Either.right(cells)
}

const text = (cells: Cells, i: number) => (cells[i] ?? null) as string | null
const num = (cells: Cells, i: number) => (cells[i] ?? null) as number | null

const nonNegative = (cells: Cells, columns: ReadonlyArray<readonly [string, number]>): string | undefined => {
  for (const [name, i] of columns) if ((num(cells, i) ?? 0) < 0) return `${name} must not be negative`
  return undefined
}

const named = (at: Readonly<Record<string, number>>, names: ReadonlyArray<string>) =>
  names.map((name) => [name, at[name]!] as const)
const METERING_AMOUNTS = named(M, ["CREDITS_USED", "CREDITS_USED_COMPUTE", "CREDITS_USED_CLOUD_SERVICES", "CREDITS_ATTRIBUTED_COMPUTE_QUERIES"])

const toMetering = (cells: Cells): Either.Either<MeteringRow, string> => {
  const problem = nonNegative(cells, METERING_AMOUNTS)
  if (problem !== undefined) return Either.left(problem)
  const start = num(cells, M.START_TIME!)!
  const end = num(cells, M.END_TIME!)!
  if (end <= start) return Either.left("END_TIME must be after START_TIME")
  return Either.right({
    start,
    end,
    warehouseId: text(cells, M.WAREHOUSE_ID!),
    warehouse: text(cells, M.WAREHOUSE_NAME!)!,
    creditsUsed: num(cells, M.CREDITS_USED!),
    compute: num(cells, M.CREDITS_USED_COMPUTE!)!,
    cloudServices: num(cells, M.CREDITS_USED_CLOUD_SERVICES!),
    attributedToQueries: num(cells, M.CREDITS_ATTRIBUTED_COMPUTE_QUERIES!)
  })
}

const QUERY_AMOUNTS = named(Q, [
  "TOTAL_ELAPSED_TIME",
  "EXECUTION_TIME",
  "COMPILATION_TIME",
  "QUEUED_PROVISIONING_TIME",
  "QUEUED_OVERLOAD_TIME",
  "BYTES_SCANNED",
  "BYTES_SPILLED_TO_LOCAL_STORAGE",
  "BYTES_SPILLED_TO_REMOTE_STORAGE",
  "PARTITIONS_SCANNED",
  "PARTITIONS_TOTAL",
  "ROWS_PRODUCED"
])

const toQuery = (cells: Cells): Either.Either<QueryRow, string> => {
  const problem = nonNegative(cells, QUERY_AMOUNTS)
  if (problem !== undefined) return Either.left(problem)
  const cache = num(cells, Q.PERCENTAGE_SCANNED_FROM_CACHE!)
  if (cache !== null && (cache < 0 || cache > 1)) {
    return Either.left("PERCENTAGE_SCANNED_FROM_CACHE is a fraction from 0 to 1")
  }
  const start = num(cells, Q.START_TIME!)!
  const end = num(cells, Q.END_TIME!)!
  if (end < start) return Either.left("END_TIME must not be before START_TIME")
  return Either.right({
    queryId: text(cells, Q.QUERY_ID!)!,
    queryText: text(cells, Q.QUERY_TEXT!),
    queryType: text(cells, Q.QUERY_TYPE!),
    database: text(cells, Q.DATABASE_NAME!),
    schema: text(cells, Q.SCHEMA_NAME!),
    user: text(cells, Q.USER_NAME!),
    role: text(cells, Q.ROLE_NAME!),
    warehouse: text(cells, Q.WAREHOUSE_NAME!),
    warehouseSize: text(cells, Q.WAREHOUSE_SIZE!),
    queryTag: text(cells, Q.QUERY_TAG!),
    status: text(cells, Q.EXECUTION_STATUS!),
    start,
    end,
    totalElapsedMs: num(cells, Q.TOTAL_ELAPSED_TIME!),
    executionMs: num(cells, Q.EXECUTION_TIME!),
    compilationMs: num(cells, Q.COMPILATION_TIME!),
    queuedProvisioningMs: num(cells, Q.QUEUED_PROVISIONING_TIME!),
    queuedOverloadMs: num(cells, Q.QUEUED_OVERLOAD_TIME!),
    bytesScanned: num(cells, Q.BYTES_SCANNED!),
    cacheFraction: cache,
    bytesSpilledLocal: num(cells, Q.BYTES_SPILLED_TO_LOCAL_STORAGE!),
    bytesSpilledRemote: num(cells, Q.BYTES_SPILLED_TO_REMOTE_STORAGE!),
    partitionsScanned: num(cells, Q.PARTITIONS_SCANNED!),
    partitionsTotal: num(cells, Q.PARTITIONS_TOTAL!),
    rowsProduced: num(cells, Q.ROWS_PRODUCED!),
    parameterizedHash: text(cells, Q.QUERY_PARAMETERIZED_HASH!)
  })
}

const toAttribution = (cells: Cells): Either.Either<AttributionRow, string> => {
  const credits = num(cells, A.CREDITS_ATTRIBUTED_COMPUTE!)!
  if (credits < 0) return Either.left("CREDITS_ATTRIBUTED_COMPUTE must not be negative")
  return Either.right({ queryId: text(cells, A.QUERY_ID!)!, warehouse: text(cells, A.WAREHOUSE_NAME!), credits })
}

const TYPED: { readonly [K in ExportKind]: (cells: Cells) => Either.Either<RowOf<K>, string> } = {
  metering: toMetering,
  queries: toQuery,
  attribution: toAttribution
}

const typed = <K extends ExportKind>(kind: K, cells: Either.Either<Cells, string>) =>
  Either.flatMap(cells, TYPED[kind] as (cells: Cells) => Either.Either<RowOf<K>, string>)

/**
 * One row of an export (a JSON object, keys in any case), or a one-line description of every problem with it.
 * @since 0.1.0
 * @category utils
 */
export const decodeExportRow = <K extends ExportKind>(kind: K, row: unknown): Either.Either<RowOf<K>, string> => {
  if (typeof row !== "object" || row === null || Array.isArray(row)) return Either.left("a row must be a JSON object")
  const byUpper = new Map<string, unknown>()
  for (const key of Object.keys(row)) byUpper.set(key.toUpperCase(), (row as Record<string, unknown>)[key])
  const specs = COLUMNS[kind]
  return typed(kind, readCells(kind, (i) => byUpper.has(specs[i]!.name) ? byUpper.get(specs[i]!.name) : ABSENT))
}

/**
 * The decoder of a CSV export's records, given its header's names in upper case (which name every
 * column the header must: see readHeader). A column the header lacks reads as empty.
 * @since 0.1.0
 * @category utils
 */
export const csvRowDecoder = <K extends ExportKind>(kind: K, header: ReadonlyArray<string>) => {
  // The last of columns named alike, as when the fields were set one after another on an object.
  const at = COLUMNS[kind].map((spec) => header.lastIndexOf(spec.name))
  return (fields: ReadonlyArray<string>): Either.Either<RowOf<K>, string> =>
    typed(kind, readCells(kind, (i) => at[i]! < 0 ? undefined : fields[at[i]!]))
}
