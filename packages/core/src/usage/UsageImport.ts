/**
 * Imports a usage file, all or nothing, in constant memory: a first pass reads the whole file
 * and validates every row, writing nothing; only a file without a single bad row is read a second
 * time, inside one transaction, and inserted in batches. The file is never held in memory, which
 * is why it is read twice (`open` gives a fresh stream each time).
 *
 * Usage records are measurements, not configuration: imports are not audited (the spec's audit
 * log names no resource for them) and importing the same file twice counts its usage twice.
 */
import { Chunk, Context, Effect, Either, Layer, Stream } from "effect"
import { Organizations } from "../identity/Organizations.js"
import { FieldIssue, type NotFound, type StoreUnavailable, ValidationFailed } from "../shared/Errors.js"
import type { OrganizationId } from "../shared/Ids.js"
import { Transactor } from "../shared/Transactor.js"
import type { UsageRecord } from "./Domain.js"
import { UsageRecordsRepo } from "./Repo.js"
import { type ParsedRow, parseRows, type UsageFileFormat } from "./UsageFile.js"

export interface UsageSource<E, R = never> {
  readonly format: UsageFileFormat
  /** The file's text in chunks, from the start; called once per pass. */
  readonly open: () => Stream.Stream<string, E, R>
}

export interface ImportSummary {
  readonly rows: number
}

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

/** Rows read and inserted at a time. */
export const BATCH_SIZE = 1000
/** Bad lines named in the error; the rest are only counted. */
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

export const make = Effect.gen(function*() {
  const organizations = yield* Organizations
  const repo = yield* UsageRecordsRepo
  const tx = yield* Transactor

  return UsageImport.of({
    run: (organizationId, source) =>
      Effect.gen(function*() {
        yield* organizations.get(organizationId)
        const validation = yield* validateAll(parseRows(source.format, source.open()))
        if (validation.invalid > 0) return yield* rejected(validation)
        let inserted = 0
        yield* tx.withTransaction(
          parseRows(source.format, source.open()).pipe(
            Stream.mapChunksEffect(validRecords),
            Stream.rechunk(BATCH_SIZE),
            Stream.runForEachChunk((batch) => {
              inserted += batch.length
              return repo.insert(organizationId, Chunk.toReadonlyArray(batch))
            }),
            // Fewer or more rows than were validated: the file changed in between.
            Effect.filterOrFail(() => inserted === validation.rows, () => changedMeanwhile)
          )
        )
        return { rows: inserted }
      })
  })
})

export const layer = Layer.effect(UsageImport, make)
