/**
 * Usage records: appended in multi-row INSERTs, and scanned for attribution a month at a time,
 * handed over in bounded batches, each store the way it reads fastest while seeing one state of
 * the store throughout.
 *
 * SQLite reads the month in batches of consecutive `seq` values, which is the order rows were written
 * and so (near enough) the order they lie on disk; following the (organization_id, start_time)
 * index instead would fetch each row from a random page, several times slower once the table
 * outgrows the cache. The index still bounds the scan: it gives the lowest and highest `seq` of
 * the month's rows, and only that span is read (tight when months are imported in order, wider
 * but never wrong when a file mixes them). The snapshot is the table's highest `seq` when the scan
 * begins: one writer at a time, so every row committed after the scan began has a higher one, and
 * every later statement of the scan reads at or below it. better-sqlite3 runs each statement on
 * the event loop, so no statement of the scan may read the whole month: the span is gathered
 * SPAN_CHUNK index entries at a time with a turn of the loop between chunks (one `min/max` over a
 * million entries held the loop ~300 ms), and a window reads at most SEQ_WINDOW rows, however the
 * month's rows are interleaved with other organizations' or months'; the caller paces the
 * batches (see core's Slices).
 *
 * A staged import's rows (`import_id` of a row in `usage_imports`) are invisible until it is
 * published. SQLite reads the pending imports in the same statement as the span (one snapshot)
 * and leaves their rows out of every batch; rows published later are left out too, so the scan
 * sees an import entirely or not at all. The common case, no import pending, reads as before.
 *
 * Postgres hands out `seq` at INSERT, not at COMMIT, so there the scan is one statement read
 * through a cursor (`FETCH` a batch at a time) inside a REPEATABLE READ, READ ONLY transaction (a
 * reader that takes no transaction id and holds back nobody). Keyset batches would leave each
 * batch's plan to row estimates that a fresh bulk import has not updated yet.
 */
import { Slices, UsageRepo } from "@costline/core"
import type { Ids, Usage } from "@costline/core"
import { TransactionConnection } from "@effect/sql/SqlClient"
import { type Context, Effect, Layer, Option } from "effect"
import { isoText } from "../Columns.js"
import { copyEscape } from "../PgCopy.js"
import type { SqlValue } from "../SqlDialect.js"
import { RepoContext } from "./RepoContext.js"
import { leaveLockFree as lockGap, ROWS_PER_DISCARD } from "./Staging.js"

/** Rows per INSERT: at 22 parameters a row, far below both databases' parameter limits. */
const ROWS_PER_INSERT = 500
/** Rows per Postgres FETCH: large enough to amortise a round trip, small enough to never matter in memory. */
const ROWS_PER_SCAN = 5000
/** `seq` values per SQLite batch: a statement that reads them takes a few milliseconds. */
const SEQ_WINDOW = 2000
/** Index entries per span statement on SQLite: a few milliseconds of the event loop each. */
export const SPAN_CHUNK = 5000

type Kind = "timestamp" | "number" | "text" | "boolean" | "json"

/** How each field of a usage record is stored; one column per field, named alike. */
const KINDS = {
  start_time: "timestamp",
  credits: "number",
  warehouse_name: "text",
  warehouse_size: "text",
  user_name: "text",
  role_name: "text",
  database_name: "text",
  schema_name: "text",
  query_tag: "text",
  query_type: "text",
  service_type: "text",
  is_serverless: "boolean",
  execution_time_ms: "number",
  bytes_scanned: "number",
  accessed_databases: "json",
  tags: "json",
  dbt_project: "text",
  dbt_model: "text",
  account_name: "text",
  region: "text",
  dw_organization_name: "text"
} as const satisfies Record<keyof Usage.UsageRecord, Kind>

const FIELDS = Object.entries(KINDS) as ReadonlyArray<readonly [keyof Usage.UsageRecord, Kind]>

const toColumn = (kind: Kind, value: unknown, boolean: (flag: boolean) => SqlValue): SqlValue => {
  if (value === undefined || value === null) return null
  switch (kind) {
    case "timestamp":
      return isoText(value as Date)
    case "boolean":
      return boolean(value as boolean)
    case "json":
      return JSON.stringify(value)
    default:
      return value as string | number
  }
}

/** Accepts what either driver returns: ISO text or `Date`, 0/1 or booleans, JSON text or parsed jsonb. */
const fromColumn = (kind: Kind, value: unknown): unknown => {
  switch (kind) {
    case "timestamp":
      return value instanceof Date ? value : new Date(value as string)
    case "number":
      return Number(value)
    case "boolean":
      return value === true || value === 1
    case "json":
      return typeof value === "string" ? JSON.parse(value) : value
    case "text":
      return value
  }
}

/** The columns of a usage record as stored. */
export const usageRow = (boolean: (flag: boolean) => SqlValue, organizationId: Ids.OrganizationId, record: Usage.UsageRecord) => {
  const row: Record<string, SqlValue> = { organization_id: organizationId }
  for (const [field, kind] of FIELDS) row[field] = toColumn(kind, record[field], boolean)
  return row
}

/** Postgres's type of each kind of field (see the usage_records table). */
const PG_TYPES: Record<Kind, string> = {
  timestamp: "timestamptz",
  number: "double precision",
  text: "text",
  boolean: "boolean",
  json: "jsonb"
}

/** The stored fields of a usage record, in the order `usageValues` writes them, with their Postgres types. */
export const USAGE_COLUMNS: ReadonlyArray<readonly [name: string, pgType: string]> = FIELDS.map(([field, kind]) =>
  [field, PG_TYPES[kind]] as const
)

/**
 * A usage record's stored values in USAGE_COLUMNS order, appended to `out` (bulk writers fill one
 * flat array a batch, with no object per row).
 */
export const usageValues = (boolean: (flag: boolean) => SqlValue, record: Usage.UsageRecord, out: Array<SqlValue>) => {
  for (let i = 0; i < FIELDS.length; i++) {
    const [field, kind] = FIELDS[i]!
    out.push(toColumn(kind, record[field], boolean))
  }
}

const FIELD_NAMES = FIELDS.map(([field]) => field)
const FIELD_KINDS = FIELDS.map(([, kind]) => kind)

/**
 * Postgres: a usage record's columns in USAGE_COLUMNS order as COPY text (see PgCopy), tab-separated,
 * written straight from the record (no array of values in between: a million-row ingestion
 * spent more time building those arrays than the server spent reading the text).
 */
export const usageCopyText = (record: Usage.UsageRecord): string => {
  const values = record as unknown as Record<string, unknown>
  let line = ""
  for (let i = 0; i < FIELD_NAMES.length; i++) {
    const value = values[FIELD_NAMES[i]!]
    let text: string
    if (value === undefined || value === null) text = "\\N"
    else {
      switch (FIELD_KINDS[i]) {
        case "timestamp":
          text = isoText(value as Date)
          break
        case "number":
          text = String(value)
          break
        case "boolean":
          text = value === true ? "t" : "f"
          break
        case "json":
          text = copyEscape(JSON.stringify(value))
          break
        default:
          text = copyEscape(value as string)
      }
    }
    line = i === 0 ? text : `${line}\t${text}`
  }
  return line
}

/**
 * A scanned row, given how to read the value of the i-th field. Rows are mapped by hand rather
 * than decoded with a schema: a report reads every row of a month, millions of them, and the
 * columns were written from validated records. A stored NULL becomes an absent field, which
 * filters treat exactly like null.
 */
const toRecord = (valueOf: (field: keyof Usage.UsageRecord, i: number) => unknown): Usage.UsageRecord => {
  const record: Record<string, unknown> = {}
  for (let i = 0; i < FIELDS.length; i++) {
    const [field, kind] = FIELDS[i]!
    const value = valueOf(field, i)
    if (value !== null && value !== undefined) record[field] = fromColumn(kind, value)
  }
  return record as unknown as Usage.UsageRecord
}

/** SQLite rows come as arrays (far cheaper for better-sqlite3 to build than objects): `seq`, then FIELDS. */
const fromValues = (row: ReadonlyArray<unknown>) => toRecord((_, i) => row[i + 1])
const fromObject = (row: Readonly<Record<string, unknown>>) => toRecord((field) => row[field])

export const make = Effect.gen(function*() {
  const { dialect, errors, sql, write } = yield* RepoContext
  const columns = sql.literal(FIELDS.map(([field]) => field).join(", "))

  const toRow = (organizationId: Ids.OrganizationId, record: Usage.UsageRecord, importId: string | null = null) => ({
    ...usageRow(dialect.boolean, organizationId, record),
    import_id: importId
  })

  /** The snapshot: the highest `seq` written so far and the imports pending, in one statement. */
  const snapshot = sql<{ readonly top: unknown; readonly pending: string | null }>`
    SELECT (SELECT max(seq) FROM usage_records) AS top, (SELECT json_group_array(id) FROM usage_imports) AS pending`.pipe(
    Effect.map(([row]) => ({ top: Number(row?.top ?? 0), pending: JSON.parse(row?.pending ?? "[]") as ReadonlyArray<string> }))
  )

  /**
   * One chunk of the month's index entries at or below the snapshot, from `from` on (inclusive, or
   * after it when `after`): the lowest and highest `seq` met, how many, and the last start time.
   */
  const spanChunk = (scan: UsageRepo.UsageScan, top: number, from: string, after: boolean) =>
    sql<{ readonly lo: unknown; readonly hi: unknown; readonly n: unknown; readonly t: string | null }>`
      SELECT min(seq) AS lo, max(seq) AS hi, count(*) AS n, max(start_time) AS t FROM (
        SELECT seq, start_time FROM usage_records
        WHERE organization_id = ${scan.organizationId}
          AND ${after ? sql`start_time > ${from}` : sql`start_time >= ${from}`} AND start_time < ${isoText(scan.to)}
          AND seq <= ${top}
        ORDER BY start_time LIMIT ${SPAN_CHUNK})`.pipe(
      Effect.map(([row]) => ({ lo: Number(row?.lo), hi: Number(row?.hi), n: Number(row?.n ?? 0), t: row?.t ?? from }))
    )

  /** Every row of the month at one start time: the one case a chunk cannot split (more than SPAN_CHUNK alike). */
  const spanAt = (scan: UsageRepo.UsageScan, top: number, at: string) =>
    sql<{ readonly lo: unknown; readonly hi: unknown }>`
      SELECT min(seq) AS lo, max(seq) AS hi FROM usage_records
      WHERE organization_id = ${scan.organizationId} AND start_time = ${at} AND seq <= ${top}`.pipe(
      Effect.map(([row]) => ({ lo: Number(row?.lo), hi: Number(row?.hi) }))
    )

  /**
   * The span of `seq` holding the scan's rows (none when it has none), from the time index alone,
   * gathered in chunks that overlap by their last start time (a min and a max do not mind seeing
   * an entry twice), with a turn of the event loop between them.
   */
  const seqSpan = (scan: UsageRepo.UsageScan) =>
    Effect.gen(function*() {
      const { pending, top } = yield* snapshot
      let first = Infinity
      let last = -Infinity
      let from = isoText(scan.from)
      let after = false
      for (;;) {
        const chunk = yield* spanChunk(scan, top, from, after)
        if (chunk.n === 0) break
        first = Math.min(first, chunk.lo)
        last = Math.max(last, chunk.hi)
        if (chunk.n < SPAN_CHUNK) break
        if (chunk.t === from && !after) {
          // The whole chunk shares its first start time: take that instant whole, then go past it.
          const at = yield* spanAt(scan, top, from)
          first = Math.min(first, at.lo)
          last = Math.max(last, at.hi)
          after = true
        } else {
          after = false
        }
        from = chunk.t
        yield* Slices.yieldToEventLoop
      }
      return first > last ? Option.none() : Option.some({ first, last, pending })
    })

  /**
   * Leaves out the rows of imports that were pending when the scan began, and the records replaced
   * by an ingestion that was published by then (KeyedUsageRepo).
   */
  const published = (pending: ReadonlyArray<string>) =>
    pending.length === 0 ? sql.literal("replaced_by IS NULL") : sql`(import_id IS NULL OR import_id NOT IN ${sql.in(pending)})
      AND (replaced_by IS NULL OR replaced_by IN ${sql.in(pending)})`

  // SQLite would rather take the time index and sort (it has no statistics to know better):
  // NOT INDEXED leaves it the rowid range (after, upTo].
  const batch = (scan: UsageRepo.UsageScan, after: number, upTo: number, pending: ReadonlyArray<string>) =>
    sql`
      SELECT seq, ${columns} FROM usage_records NOT INDEXED
      WHERE seq > ${after} AND seq <= ${upTo} AND ${published(pending)}
        AND organization_id = ${scan.organizationId}
        AND start_time >= ${isoText(scan.from)} AND start_time < ${isoText(scan.to)}
      ORDER BY seq`.values

  const windowScan = <E>(scan: UsageRepo.UsageScan, onBatch: (records: ReadonlyArray<Usage.UsageRecord>) => Effect.Effect<void, E>) =>
    Effect.gen(function*() {
      const span = yield* seqSpan(scan)
      if (Option.isNone(span)) return
      const last = span.value.last
      // Just before the first row: `seq` is a positive integer, so first - 1 excludes nothing.
      for (let after = span.value.first - 1; after < last; after += SEQ_WINDOW) {
        const rows = yield* batch(scan, after, Math.min(after + SEQ_WINDOW, last), span.value.pending)
        if (rows.length > 0) yield* onBatch(rows.map(fromValues))
      }
    })

  // A cursor declared by hand, not the driver's (which fetches 128 rows per round trip).
  const cursorScan = <E>(scan: UsageRepo.UsageScan, onBatch: (records: ReadonlyArray<Usage.UsageRecord>) => Effect.Effect<void, E>) =>
    Effect.gen(function*() {
      yield* sql`
        DECLARE usage_scan NO SCROLL CURSOR FOR
        SELECT ${columns} FROM usage_records
        WHERE organization_id = ${scan.organizationId}
          AND start_time >= ${isoText(scan.from)} AND start_time < ${isoText(scan.to)}
          AND (import_id IS NULL OR import_id NOT IN (SELECT id FROM usage_imports))
          AND (replaced_by IS NULL OR replaced_by IN (SELECT id FROM usage_imports))`
      for (;;) {
        const rows = yield* sql<Record<string, unknown>>`FETCH FORWARD ${sql.literal(String(ROWS_PER_SCAN))} FROM usage_scan`
        if (rows.length > 0) yield* onBatch(rows.map(fromObject))
        if (rows.length < ROWS_PER_SCAN) return
      }
    }).pipe(
      // Inside a caller's transaction the cursor would outlive a failed batch; the transaction of
      // its own ends with the scan anyway. A CLOSE that fails (the transaction failed) is moot.
      Effect.ensuring(Effect.ignore(sql`CLOSE usage_scan`))
    )

  /** One snapshot for the whole scan, unless the caller's transaction already is one. */
  const inSnapshot = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
    Effect.flatMap(Effect.serviceOption(TransactionConnection), (transaction) =>
      Option.isSome(transaction)
        ? effect
        : sql.withTransaction(Effect.zipRight(sql`SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY`, effect)))

  const insertRows = (organizationId: Ids.OrganizationId, records: ReadonlyArray<Usage.UsageRecord>, importId: string | null) =>
    Effect.forEach(
      Array.from({ length: Math.ceil(records.length / ROWS_PER_INSERT) }, (_, i) =>
        records.slice(i * ROWS_PER_INSERT, (i + 1) * ROWS_PER_INSERT)),
      (chunk) => sql`INSERT INTO usage_records ${sql.insert(chunk.map((record) => toRow(organizationId, record, importId)))}`,
      { discard: true }
    )

  const leaveLockFree = lockGap(sql)

  /**
   * One transaction: deletes up to ROWS_PER_DISCARD of the import's rows after `after` in `seq`
   * order; the last `seq` deleted, none when no row was left.
   */
  const discardBatch = (importId: string, after: unknown) =>
    write(
      sql<{ readonly seq: unknown }>`
        SELECT seq FROM usage_records WHERE seq > ${after as SqlValue} AND import_id = ${importId}
        ORDER BY seq LIMIT ${ROWS_PER_DISCARD}`.pipe(
        Effect.tap((rows) =>
          rows.length === 0 ? Effect.void : sql`DELETE FROM usage_records WHERE seq IN ${sql.in(rows.map((row) => row.seq))}`
        ),
        Effect.map((rows) => Option.map(Option.fromNullable(rows.at(-1)), (row) => row.seq)),
        errors.orUnavailable
      )
    )

  return UsageRepo.UsageRecordsRepo.of({
    insert: (organizationId, records) => write(insertRows(organizationId, records, null).pipe(errors.orUnavailable)),

    beginImport: (organizationId, importId, now) =>
      write(
        sql`
          INSERT INTO usage_imports (id, organization_id, floor_seq, started_at, heartbeat_at)
          VALUES (${importId}, ${organizationId}, (SELECT coalesce(max(seq), 0) FROM usage_records), ${isoText(now)}, ${isoText(now)})`
          .pipe(errors.orUnavailable)
      ),

    stage: (organizationId, importId, records, now) =>
      write(
        insertRows(organizationId, records, importId).pipe(
          Effect.zipRight(sql`UPDATE usage_imports SET heartbeat_at = ${isoText(now)} WHERE id = ${importId}`),
          errors.orUnavailable
        )
      ).pipe(Effect.zipLeft(leaveLockFree)),

    publish: (importId) => write(sql`DELETE FROM usage_imports WHERE id = ${importId}`.pipe(errors.orUnavailable)),

    discard: (importId) =>
      Effect.gen(function*() {
        const [started] = yield* sql<{ readonly floor_seq: unknown }>`SELECT floor_seq FROM usage_imports WHERE id = ${importId}`
          .pipe(errors.orUnavailable)
        if (started === undefined) return
        // An ingestion's marks first (KeyedUsageRepo): the records it would have replaced stay.
        for (;;) {
          const unmarked = yield* write(
            sql`UPDATE usage_records SET replaced_by = NULL WHERE seq IN (
                  SELECT seq FROM usage_records WHERE replaced_by = ${importId} LIMIT ${ROWS_PER_DISCARD})
                RETURNING seq`.pipe(errors.orUnavailable)
          )
          if (unmarked.length === 0) break
          yield* leaveLockFree
        }
        let after = started.floor_seq
        for (;;) {
          const last = yield* discardBatch(importId, after)
          if (Option.isNone(last)) break
          after = last.value
          yield* leaveLockFree
        }
        yield* write(sql`DELETE FROM usage_imports WHERE id = ${importId}`.pipe(errors.orUnavailable))
      }),

    staleImports: (before) =>
      sql<{ readonly id: string }>`SELECT id FROM usage_imports WHERE heartbeat_at < ${isoText(before)}`.pipe(
        Effect.map((rows) => rows.map((row) => row.id)),
        errors.orUnavailable
      ),

    // Batches are handled in the caller's own context, never inside the scan's read-only snapshot.
    scan: <E, R>(scan: UsageRepo.UsageScan, onBatch: (records: ReadonlyArray<Usage.UsageRecord>) => Effect.Effect<void, E, R>) =>
      Effect.flatMap(Effect.context<R>(), (context) => {
        // Replaces the context, not merges into it: the snapshot's connection must not leak into onBatch.
        const handle = (records: ReadonlyArray<Usage.UsageRecord>) => Effect.mapInputContext(onBatch(records), (_: Context.Context<never>) => context)
        return sql.onDialectOrElse({
          pg: () => inSnapshot(cursorScan(scan, handle)),
          orElse: () => windowScan(scan, handle)
        })
      }).pipe(errors.orUnavailable, errors.unavailableDefects)
  })
})

export const layer = Layer.effect(UsageRepo.UsageRecordsRepo, make)
