/**
 * Ingests an organization's warehouse account-usage exports: per-query cost and idle cost as
 * usage records (so usage groups and budgets see them), and insights from the detectors.
 *
 * All or nothing, in bounded memory: a first pass reads every file and validates every row,
 * writing nothing, while it gathers what the allocation needs (the metered hours, the execution
 * intervals of each hour, the attributed credits when given); only when no row is bad does a
 * second pass read the queries again inside one transaction, pricing each and writing its usage
 * record, then the idle of every hour, then the insights, then one `organization` audit record.
 * Re-ingesting replaces records by key (QUERY_ID; warehouse + hour) and upserts insights by
 * (insight_type, resource_id), so the same or overlapping files never count anything twice.
 */
import { Clock, Context, Duration, Effect, Either, Fiber, Layer, Stream } from "effect"
import * as Audited from "../audit/internal/Audited.js"
import { AuditLog } from "../audit/AuditLog.js"
import { Organizations } from "../identity/Organizations.js"
import { type Insight, InsightListQuery, InsightUpsert, upsertOf } from "../insights/Domain.js"
import { Insights } from "../insights/Insights.js"
import { MAX_PAGE_SIZE, type Page } from "../shared/Listing.js"
import { makeSlicer } from "../shared/Slices.js"
import type { Actor } from "../shared/Actor.js"
import { type Conflict, FieldIssue, type NotFound, type StoreUnavailable, ValidationFailed } from "../shared/Errors.js"
import { newId, type OrganizationId } from "../shared/Ids.js"
import { Transactor } from "../shared/Transactor.js"
import type { UsageRecord } from "../usage/Domain.js"
import { UsageRecordsRepo } from "../usage/Repo.js"
import { STALE_AFTER } from "../usage/UsageImport.js"
import type { UsageFileFormat } from "../usage/UsageFile.js"
import { makeLedger } from "./Allocation.js"
import { makeDigestSet } from "./internal/DigestSet.js"
import { DAY_MS, DETECTED_TYPES, makeDetectors, ORIGIN } from "./Detectors.js"
import { readExport } from "./ExportFile.js"
import type { ExportKind, QueryRow, RowOf } from "./Exports.js"
import { VIEW_NAMES } from "./Exports.js"
import { type KeyedUsage, KeyedUsageRepo } from "./Repo.js"
import { thresholdsOf } from "./Settings.js"

/**
 * @since 0.1.0
 * @category models
 */
export interface ExportSource<E, R = never> {
  readonly format: UsageFileFormat
  /** The file's text in chunks, from the start; called once per pass. */
  readonly open: () => Stream.Stream<string, E, R>
}

/**
 * @since 0.1.0
 * @category models
 */
export interface IngestSources<E, R = never> {
  readonly metering: ExportSource<E, R>
  readonly queries: ExportSource<E, R>
  readonly attribution?: ExportSource<E, R> | undefined
}

/**
 * @since 0.1.0
 * @category models
 */
export interface IngestProgress {
  readonly phase: "validate" | "write"
  readonly file: ExportKind
  /** Rows read so far in this phase and file. */
  readonly rows: number
}

/**
 * @since 0.1.0
 * @category models
 */
export interface IngestOptions<R = never> {
  /** Days before the end of the input the detectors look at; the organization's setting otherwise. */
  readonly windowDays?: number | undefined
  /** Called about every PROGRESS_EVERY rows and at the end of each file. */
  readonly onProgress?: ((progress: IngestProgress) => Effect.Effect<void, never, R>) | undefined
}

/**
 * @since 0.1.0
 * @category models
 */
export interface IngestSummary {
  readonly metering_rows: number
  readonly hours: number
  readonly queries: number
  /** Rows of a QUERY_ID already read earlier in the file: counted once. */
  readonly duplicate_queries: number
  /** Queries whose execution fell in no metered hour of their warehouse: no credits. */
  readonly unmetered_queries: number
  readonly compute_credits: number
  readonly query_credits: number
  readonly idle_credits: number
  readonly idle_share: number
  readonly usage_records: number
  readonly window_start: string
  readonly window_end: string
  readonly insights_created: number
  readonly insights_updated: number
  readonly insights_unchanged: number
  /**
   * Insights an earlier ingestion found that this one, over the same warehouses, no longer finds:
   * kept, with `is_current: false` (a later ingestion that finds them again makes them current).
   */
  readonly insights_retired: number
}

type Ingestion = { readonly organizationId: OrganizationId; readonly summary: IngestSummary }

/**
 * An ingestion is an `organization` event (an update of what the organization knows), with its summary.
 * @since 0.1.0
 * @category utils
 */
export const IngestionAudit = Audited.event<Ingestion>("organization", "dw_ingestions", {
  id: ({ organizationId }) => organizationId,
  values: ({ summary }) => ({ ...summary }),
  operations: { create: "update" }
})

/**
 * @since 0.1.0
 * @category tags
 */
export class DwIngest extends Context.Tag("@costline/core/DwIngest")<
  DwIngest,
  {
    /** Every bad row of every file → one ValidationFailed naming the lines (the first ones), and nothing stored. */
    readonly run: <E, R>(
      actor: Actor,
      organizationId: OrganizationId,
      sources: IngestSources<E, R>,
      options?: IngestOptions<R>
    ) => Effect.Effect<IngestSummary, NotFound | ValidationFailed | Conflict | E | StoreUnavailable, R>
  }
>() {}

/**
 * Usage records written at a time.
 * @since 0.1.0
 * @category constants
 */
export const BATCH_SIZE = 1000
/**
 * Bad lines named in the error; the rest are only counted.
 * @since 0.1.0
 * @category constants
 */
export const REPORTED_PROBLEMS = 20
const PROBLEMS_IN_MESSAGE = 3
/**
 * @since 0.1.0
 * @category constants
 */
export const PROGRESS_EVERY = 100_000

/** The most text read between two chances to give the event loop a turn. */
const TEXT_SLICE = 64 * 1024

const textSlices = (text: string): ReadonlyArray<string> => {
  if (text.length <= TEXT_SLICE) return [text]
  const slices: Array<string> = []
  for (let at = 0; at < text.length; at += TEXT_SLICE) slices.push(text.slice(at, at + TEXT_SLICE))
  return slices
}

interface Problems {
  rows: number
  invalid: number
  readonly listed: Array<{ readonly file: ExportKind; readonly line: number; readonly problem: string }>
}

const rejected = (problems: Problems): ValidationFailed => {
  const where = (p: Problems["listed"][number]) => `${VIEW_NAMES[p.file]} line ${p.line}`
  const quoted = problems.listed.slice(0, PROBLEMS_IN_MESSAGE).map((p) => `${where(p)}: ${p.problem}`)
  const more = problems.invalid > quoted.length ? `; and ${problems.invalid - quoted.length} more` : ""
  const rows = problems.invalid === 1 ? "1 invalid row" : `${problems.invalid} invalid rows`
  return new ValidationFailed({
    message: `${rows} of ${problems.rows}, nothing was ingested: ${quoted.join("; ")}${more}`,
    details: problems.listed.map((p) => new FieldIssue({ field: `${p.file} line ${p.line}`, issue: "invalid", message: p.problem }))
  })
}

const changedMeanwhile = ValidationFailed.single(
  "file",
  "changed",
  "a file changed while it was being ingested; nothing was ingested"
)

const round = (value: number) => Math.round(value * 1e6) / 1e6

const queryRecord = (query: QueryRow, credits: number): UsageRecord => ({
  start_time: new Date(query.start),
  credits,
  warehouse_name: query.warehouse,
  warehouse_size: query.warehouseSize,
  user_name: query.user,
  role_name: query.role,
  database_name: query.database,
  schema_name: query.schema,
  query_tag: query.queryTag,
  query_type: query.queryType,
  service_type: "WAREHOUSE_METERING",
  is_serverless: false,
  execution_time_ms: query.executionMs,
  bytes_scanned: query.bytesScanned
})

/**
 * The tag that tells idle-time records apart, for usage group filters (`tags.cost_kind = idle`).
 * @since 0.1.0
 * @category constants
 */
export const IDLE_TAGS = { cost_kind: "idle" } as const

/**
 * @since 0.1.0
 * @category constructors
 */
export const make = Effect.gen(function*() {
  const organizations = yield* Organizations
  const insights = yield* Insights
  const keyed = yield* KeyedUsageRepo
  const audit = yield* AuditLog
  const tx = yield* Transactor
  const usage = yield* UsageRecordsRepo
  const now = Effect.map(Clock.currentTimeMillis, (millis) => new Date(millis))

  /** Ingestions and usage imports left half-staged by a process that died. */
  const discardStale = Effect.gen(function*() {
    const before = new Date((yield* Clock.currentTimeMillis) - Duration.toMillis(STALE_AFTER))
    yield* Effect.forEach(yield* usage.staleImports(before), usage.discard, { discard: true })
  })

  /** Reads one file, counting and listing bad rows in `problems`, handing good ones to `each`. */
  const scan = <K extends ExportKind, E, R, R2 = never>(
    kind: K,
    source: ExportSource<E, R>,
    phase: IngestProgress["phase"],
    problems: Problems | undefined,
    each: (row: RowOf<K>) => void,
    onProgress: ((progress: IngestProgress) => Effect.Effect<void, StoreUnavailable, R>) | undefined,
    afterChunk: Effect.Effect<void, StoreUnavailable | Conflict, R2> = Effect.void as Effect.Effect<void, never, R2>
  ) =>
    Effect.suspend(() => {
      let rows = 0
      let reported = 0
      // Reading text held in memory (an HTTP body) never waits for I/O: without a turn of the
      // event loop between pieces of text and chunks of rows, a large file would hold every
      // other request of the process while it is read.
      const slicer = makeSlicer()
      const report = (force: boolean) =>
        onProgress !== undefined && (force || rows - reported >= PROGRESS_EVERY)
          ? Effect.suspend(() => {
            reported = rows
            return onProgress({ phase, file: kind, rows })
          })
          : Effect.void
      // One piece of text at a time, each at most TEXT_SLICE long: a source may hand over its
      // whole text at once (one string, or every piece in one chunk), and the reader parses
      // what it is given in one go.
      const text = source.open().pipe(
        Stream.mapConcat(textSlices),
        Stream.rechunk(1),
        Stream.tap(() => slicer.due() ? slicer.pause : Effect.void)
      )
      return readExport(kind, source.format, text).pipe(
        // Whatever size the source's pieces: `afterChunk` runs every BATCH_SIZE rows at most.
        Stream.rechunk(BATCH_SIZE),
        Stream.runForEachChunk((chunk) =>
          Effect.suspend((): Effect.Effect<void, StoreUnavailable | Conflict | ValidationFailed, R | R2> => {
            for (const parsed of chunk) {
              rows++
              if (Either.isRight(parsed.row)) {
                each(parsed.row.right)
                continue
              }
              if (problems === undefined) return Effect.fail(changedMeanwhile)
              problems.invalid++
              if (problems.listed.length < REPORTED_PROBLEMS) {
                problems.listed.push({ file: kind, line: parsed.line, problem: parsed.row.left })
              }
            }
            if (problems !== undefined) problems.rows += chunk.length
            return Effect.zipRight(afterChunk, report(false)).pipe(
              Effect.zipRight(Effect.suspend(() => slicer.due() ? slicer.pause : Effect.void))
            )
          })
        ),
        Effect.zipRight(Effect.suspend(() => report(true))),
        Effect.map(() => rows)
      )
    })

  /**
   * Marks not current the detectors' insights (`details.origin`) that this input covered (their warehouse is in it)
   * but no longer produced. Insights of warehouses the input does not mention are left alone: an
   * ingestion of one warehouse's exports says nothing about the others.
   */
  const retireUnfound = (
    actor: Actor,
    organizationId: OrganizationId,
    findings: ReadonlyArray<InsightUpsert>,
    warehouses: ReadonlySet<string>
  ) =>
    Effect.gen(function*() {
      const found = new Set(findings.map((finding) => `${finding.insight_type}\u0000${finding.resource_id}`))
      const covered = (insight: Insight) => {
        // Insights imported from elsewhere (`insights import`, seed data) are not an ingestion's to retire.
        if (insight.details["origin"] !== ORIGIN) return false
        const warehouse = insight.resource_type === "warehouse" ? insight.resource_id : insight.details["warehouse_name"]
        return typeof warehouse === "string" && warehouses.has(warehouse)
      }
      let retired = 0
      let pageToken: string | undefined = undefined
      const stale: Array<Insight> = []
      do {
        const page: Page<Insight> = yield* insights.list(organizationId, InsightListQuery.make({
          filters: { insight_type__in: DETECTED_TYPES, is_current: true },
          sort_by: "create_time",
          sort_order: "asc",
          max_results: MAX_PAGE_SIZE,
          ...(pageToken === undefined ? {} : { page_token: pageToken })
        })).pipe(
          // Neither can happen for a query built here; a store fault still fails the ingestion.
          Effect.catchTags({ InvalidPageToken: Effect.die, ValidationFailed: Effect.die })
        )
        for (const insight of page.items) {
          if (!found.has(`${insight.insight_type}\u0000${insight.resource_id}`) && covered(insight)) stale.push(insight)
        }
        pageToken = page.page_token ?? undefined
      } while (pageToken !== undefined)
      for (const insight of stale) {
        const upserted = yield* insights.upsert(actor, organizationId, InsightUpsert.make({ ...upsertOf(insight), is_current: false }))
        if (upserted._tag !== "Unchanged") retired++
      }
      return retired
    })

  const run = <E, R>(
    actor: Actor,
    organizationId: OrganizationId,
    sources: IngestSources<E, R>,
    options: IngestOptions<R> = {}
  ) =>
    Effect.gen(function*() {
      const organization = yield* organizations.get(organizationId)
      const settings = yield* thresholdsOf(organization.settings)
      const thresholds = options.windowDays === undefined ? settings : { ...settings, window_days: options.windowDays }
      const problems: Problems = { rows: 0, invalid: 0, listed: [] }
      const ledger = makeLedger({ attribution: sources.attribution !== undefined })

      // Pass 1: validate everything; gather hours, attributed credits and execution intervals.
      let windowEnd = -Infinity
      const meteringRows = yield* scan("metering", sources.metering, "validate", problems, (row) => {
        ledger.addHour(row)
        windowEnd = Math.max(windowEnd, row.end)
      }, options.onProgress)
      const attributed = new Map<string, number>()
      if (sources.attribution !== undefined) {
        yield* scan("attribution", sources.attribution, "validate", problems, (row) => {
          attributed.set(row.queryId, (attributed.get(row.queryId) ?? 0) + row.credits)
        }, options.onProgress)
      }
      // Each QUERY_ID once (the first row wins), in 16 bytes an id; the rows found again are
      // remembered by their ordinal among the file's rows, so the write pass skips the same ones.
      const seen = makeDigestSet()
      const repeatedRows: Array<number> = []
      let ordinal = 0
      const queryRows = yield* scan("queries", sources.queries, "validate", problems, (row) => {
        const at = ordinal++
        if (!seen.add(row.queryId)) {
          repeatedRows.push(at)
          return
        }
        ledger.addQuery(row, attributed.get(row.queryId))
      }, options.onProgress)
      if (problems.invalid > 0) return yield* rejected(problems)
      if (meteringRows === 0) {
        return yield* ValidationFailed.single("metering", "empty", `${VIEW_NAMES.metering} has no rows; nothing was ingested`)
      }
      ledger.finalize()

      const window = { from: windowEnd - thresholds.window_days * DAY_MS, to: windowEnd }
      const detectors = makeDetectors(window, thresholds)
      const totals = { queries: 0, unmetered: 0, queryCredits: 0, compute: 0, idle: 0, records: 0 }

      // Pass 2, staged: usage records in short transactions, invisible until the last one, which
      // publishes them with the insights and the audit record. Whatever fails, or an interruption,
      // discards what was staged.
      yield* discardStale
      yield* keyed.purgeReplaced
      const ingestionId = yield* newId<"DwIngestionId">()
      yield* keyed.begin(organizationId, ingestionId, yield* now)
      const publishedSummary = Effect.gen(function*() {
        let batch: Array<KeyedUsage> = []
        // One batch is written while the next is read and priced: the store works (a server
        // process on Postgres) while this one parses. The stage is uninterruptible and forked in
        // the staging scope, so whatever ends the staging waits for it before discarding.
        let inFlight: Fiber.RuntimeFiber<void, Conflict | StoreUnavailable> | undefined
        const awaitInFlight = Effect.suspend(() => {
          const staging = inFlight
          inFlight = undefined
          return staging === undefined ? Effect.void : Fiber.join(staging)
        })
        const flush = Effect.suspend(() => {
          if (batch.length === 0) return Effect.void
          const rows = batch
          batch = []
          totals.records += rows.length
          return awaitInFlight.pipe(
            Effect.zipRight(Effect.flatMap(now, (at) => keyed.stage(organizationId, ingestionId, rows, at)).pipe(
              Effect.uninterruptible,
              Effect.forkScoped
            )),
            Effect.map((staging) => {
              inFlight = staging
            })
          )
        })
        let read = 0
        let nextRepeated = 0
        let firstHour = Infinity
        yield* Effect.scoped(Effect.gen(function*() {
          yield* scan("queries", sources.queries, "write", undefined, (row) => {
            const at = read++
            if (repeatedRows[nextRepeated] === at) {
              nextRepeated++
              return
            }
            if (row.warehouse === null) return
            const credits = ledger.creditsOf(row, attributed.get(row.queryId))
            totals.queries++
            totals.queryCredits += credits
            if (credits === 0) totals.unmetered++
            detectors.observeQuery(row, credits)
            batch.push({ key: `query:${row.queryId}`, record: queryRecord(row, credits) })
          }, options.onProgress, Effect.suspend(() => batch.length >= BATCH_SIZE ? flush : Effect.void)).pipe(
            // The first pass counted these rows; a different count means the file changed.
            Effect.filterOrFail((rows) => rows === queryRows, () => changedMeanwhile)
          )
          yield* flush
          for (const hour of ledger.hours()) {
            firstHour = Math.min(firstHour, hour.start)
            totals.compute += hour.compute
            totals.idle += hour.idle
            detectors.observeHour(hour)
            batch.push({
              key: `idle:${hour.warehouse}:${new Date(hour.start).toISOString()}`,
              record: {
                start_time: new Date(hour.start),
                credits: hour.idle,
                warehouse_name: hour.warehouse,
                warehouse_size: hour.size,
                service_type: "WAREHOUSE_METERING",
                is_serverless: false,
                tags: IDLE_TAGS
              }
            })
            if (batch.length >= BATCH_SIZE) yield* flush
          }
          yield* flush
          yield* awaitInFlight
        }))
        // The records the staged ones replace: marked now if the store did not as it staged.
        yield* keyed.seal(organizationId, ingestionId, yield* now)
        const findings = detectors.findings()
        const warehouses = new Set<string>()
        for (const hour of ledger.hours()) warehouses.add(hour.warehouse)

        // One short transaction: the insights (a few hundred at most), the audit record, and the
        // usage records made visible (the records they replace invisible) at once.
        return yield* tx.withTransaction(Effect.gen(function*() {
          const result = { created: 0, updated: 0, unchanged: 0 }
          for (const finding of findings) {
            const upserted = yield* insights.upsert(actor, organizationId, finding)
            if (upserted._tag === "Created") result.created++
            else if (upserted._tag === "Updated") result.updated++
            else result.unchanged++
          }
          const retired = yield* retireUnfound(actor, organizationId, findings, warehouses)
          const summary: IngestSummary = {
            metering_rows: meteringRows,
            hours: ledger.hourCount(),
            queries: totals.queries,
            duplicate_queries: repeatedRows.length,
            unmetered_queries: totals.unmetered,
            compute_credits: round(totals.compute),
            query_credits: round(totals.queryCredits),
            idle_credits: round(totals.idle),
            idle_share: totals.compute > 0 ? round(totals.idle / totals.compute) : 0,
            usage_records: totals.records,
            // The window's start, or the input's when the input is shorter.
            window_start: new Date(Math.max(window.from, firstHour)).toISOString(),
            window_end: new Date(window.to).toISOString(),
            insights_created: result.created,
            insights_updated: result.updated,
            insights_unchanged: result.unchanged,
            insights_retired: retired
          }
          yield* audit.record(actor, organizationId, IngestionAudit.created({ organizationId, summary }))
          yield* keyed.publish(ingestionId)
          return summary
        }))
      }).pipe(
        // Also when interrupted: nothing staged may stay behind (a failed discard is left to the
        // next ingestion or import, which finds the heartbeat stale).
        Effect.onError(() => Effect.ignore(usage.discard(ingestionId)))
      )
      const counts = yield* publishedSummary
      // The records just replaced: deleted now, in short transactions (or by the next ingestion).
      yield* Effect.ignore(keyed.purgeReplaced)
      return counts
    })

  return DwIngest.of({ run })
})

/**
 * @since 0.1.0
 * @category layers
 */
export const layer = Layer.effect(DwIngest, make)
