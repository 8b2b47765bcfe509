/**
 * Imports a usage file, all or nothing, in constant memory: a first pass reads the whole file
 * and validates every row, writing nothing; only a file without a single bad row is read a second
 * time and written. The file is never held in memory, which is why it is read twice (`open` gives
 * a fresh stream each time).
 *
 * The second pass never holds the store's write lock for long (a server may share the store):
 * it stages the rows in batches, each its own short transaction, invisible to readers until one
 * last short transaction publishes them all. If anything fails (or the import is interrupted)
 * the staged rows are discarded; an import left half-staged by a process that died is discarded
 * by the next import once its heartbeat is STALE_AFTER old.
 *
 * Usage records are measurements, not configuration: imports are not audited (the spec's audit
 * log names no resource for them) and importing the same file twice counts its usage twice.
 */
import { Chunk, Clock, Context, Duration, Effect, Either, Layer, Stream } from "effect"
import { Organizations } from "../identity/Organizations.js"
import { FieldIssue, type NotFound, type StoreUnavailable, ValidationFailed } from "../shared/Errors.js"
import { newId, type OrganizationId } from "../shared/Ids.js"
import type { UsageRecord } from "./Domain.js"
import { UsageRecordsRepo } from "./Repo.js"
import { type ParsedRow, parseRows, type UsageFileFormat } from "./UsageFile.js"

/**
 * @since 0.1.0
 * @category models
 */
export interface UsageSource<E, R = never> {
  readonly format: UsageFileFormat
  /** The file's text in chunks, from the start; called once per pass. */
  readonly open: () => Stream.Stream<string, E, R>
}

/**
 * @since 0.1.0
 * @category models
 */
export interface ImportSummary {
  readonly rows: number
}

/**
 * @since 0.1.0
 * @category tags
 */
export class UsageImport extends Context.Tag("@costline/core/UsageImport")<
  UsageImport,
  {
    /** Every bad row → one ValidationFailed naming the lines (the first ones), and nothing stored. */
    readonly run: <E, R>(
      organizationId: OrganizationId,
      source: UsageSource<E, R>
    ) => Effect.Effect<ImportSummary, NotFound | ValidationFailed | E | StoreUnavailable, R>
  }
>() {}

/**
 * Rows read and staged at a time: one short transaction each.
 * @since 0.1.0
 * @category constants
 */
export const BATCH_SIZE = 2000
/**
 * A staged import whose heartbeat (renewed by each batch) is this old was left by a dead process.
 * @since 0.1.0
 * @category constants
 */
export const STALE_AFTER = Duration.minutes(10)
/**
 * Bad lines named in the error; the rest are only counted.
 * @since 0.1.0
 * @category constants
 */
export const REPORTED_PROBLEMS = 20
/** Bad lines quoted in the error's one-line message. */
const PROBLEMS_IN_MESSAGE = 3

interface Validation {
  rows: number
  invalid: number
  readonly problems: Array<{ readonly line: number; readonly problem: string }>
}

/** Counts rows and keeps the first problems; a chunk at a time, since a file may hold millions. */
const validateAll = <E, R>(rows: Stream.Stream<ParsedRow, E | ValidationFailed, R>) =>
  Effect.suspend(() => {
    const validation: Validation = { rows: 0, invalid: 0, problems: [] }
    return Stream.runForEachChunk(rows, (chunk) =>
      Effect.sync(() => {
        for (const row of chunk) {
          validation.rows++
          if (Either.isRight(row.record)) continue
          validation.invalid++
          if (validation.problems.length < REPORTED_PROBLEMS) {
            validation.problems.push({ line: row.line, problem: row.record.left })
          }
        }
      })).pipe(Effect.as(validation))
  })

const rejected = (validation: Validation): ValidationFailed => {
  const quoted = validation.problems.slice(0, PROBLEMS_IN_MESSAGE).map(({ line, problem }) => `line ${line}: ${problem}`)
  const more = validation.invalid > quoted.length ? `; and ${validation.invalid - quoted.length} more` : ""
  const rows = validation.invalid === 1 ? "1 invalid row" : `${validation.invalid} invalid rows`
  return new ValidationFailed({
    message: `${rows} of ${validation.rows}, nothing was imported: ${quoted.join("; ")}${more}`,
    details: validation.problems.map(({ line, problem }) =>
      new FieldIssue({ field: `line ${line}`, issue: "invalid", message: problem })
    )
  })
}

/** The second pass must see the file the first pass validated. */
const changedMeanwhile = ValidationFailed.single(
  "file",
  "changed",
  "the file changed while it was being imported; nothing was imported"
)

const validRecords = (rows: Chunk.Chunk<ParsedRow>): Effect.Effect<Chunk.Chunk<UsageRecord>, ValidationFailed> =>
  Effect.suspend(() => {
    const records: Array<UsageRecord> = []
    for (const row of rows) {
      if (Either.isLeft(row.record)) return Effect.fail(changedMeanwhile)
      records.push(row.record.right)
    }
    return Effect.succeed(Chunk.unsafeFromArray(records))
  })

/**
 * @since 0.1.0
 * @category constructors
 */
export const make = Effect.gen(function*() {
  const organizations = yield* Organizations
  const repo = yield* UsageRecordsRepo
  const now = Effect.map(Clock.currentTimeMillis, (millis) => new Date(millis))

  const discardStale = Effect.gen(function*() {
    const before = new Date((yield* Clock.currentTimeMillis) - Duration.toMillis(STALE_AFTER))
    yield* Effect.forEach(yield* repo.staleImports(before), repo.discard, { discard: true })
  })

  return UsageImport.of({
    run: (organizationId, source) =>
      Effect.gen(function*() {
        yield* organizations.get(organizationId)
        const validation = yield* validateAll(parseRows(source.format, source.open()))
        if (validation.invalid > 0) return yield* rejected(validation)
        yield* discardStale
        const importId = yield* newId<"UsageImportId">()
        yield* repo.beginImport(organizationId, importId, yield* now)
        let inserted = 0
        yield* parseRows(source.format, source.open()).pipe(
          Stream.mapChunksEffect(validRecords),
          Stream.rechunk(BATCH_SIZE),
          Stream.runForEachChunk((batch) => {
            inserted += batch.length
            return Effect.flatMap(now, (at) => repo.stage(organizationId, importId, Chunk.toReadonlyArray(batch), at))
          }),
          // Fewer or more rows than were validated: the file changed in between.
          Effect.filterOrFail(() => inserted === validation.rows, () => changedMeanwhile),
          Effect.zipRight(repo.publish(importId)),
          // Also when interrupted: nothing staged may stay behind (a failed discard is left to
          // the next import, which finds the heartbeat stale).
          Effect.onError(() => Effect.ignore(repo.discard(importId)))
        )
        return { rows: inserted }
      })
  })
})

/**
 * @since 0.1.0
 * @category layers
 */
export const layer = Layer.effect(UsageImport, make)
