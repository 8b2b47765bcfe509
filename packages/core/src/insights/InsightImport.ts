/**
 * Imports insights (a file's upserts, in file order, read once), all or nothing, without holding a
 * store's write lock for long: usage imports' staging (see `UsageImport`), for upserts.
 *
 * A batch of lines is merged, in memory and outside any transaction, with the state the import
 * sees for their keys (its own staged result, else the published insight), and the results and
 * their audit records are staged in one short transaction. Publishing is one short transaction of
 * set-based statements. An insight changed through the API after the import read it (its ETag is
 * no longer the import's base) is not overwritten: in the publishing transaction the import's last
 * line for it is upserted again, the ordinary way, on top of that change (one audit record).
 * A bad line stops the staging; the rest of the file is still read, so that its reader names
 * every bad line. Anything failing (or an interruption) discards what was staged; an import left
 * behind by a process that died is discarded by the next one once its heartbeat is STALE_AFTER old.
 */
import { Chunk, Clock, Context, DateTime, Duration, Effect, Either, Layer, Option, Stream } from "effect"
import { auditRecordOf } from "../audit/AuditLog.js"
import type { AuditRecord } from "../audit/Domain.js"
import { Organizations } from "../identity/Organizations.js"
import { Actor } from "../shared/Actor.js"
import { type NotFound, type StoreUnavailable, ValidationFailed } from "../shared/Errors.js"
import { newId, type OrganizationId } from "../shared/Ids.js"
import { Transactor } from "../shared/Transactor.js"
import { BATCH_SIZE, STALE_AFTER } from "../usage/UsageImport.js"
import { InsightAudit } from "./internal/AuditValues.js"
import { type Insight, type InsightId, type InsightUpsert, upsertOf } from "./Domain.js"
import { type CurrentInsight, InsightImportsRepo, type StagedInsight } from "./ImportRepo.js"
import { Insights } from "./Insights.js"
import type { InsightKey } from "./Repo.js"
import { mergeUpsert } from "./Upsert.js"

/**
 * @since 0.1.0
 * @category models
 */
export interface InsightImportSummary {
  readonly created: number
  readonly updated: number
  readonly unchanged: number
}

/**
 * @since 0.1.0
 * @category tags
 */
export class InsightImport extends Context.Tag("@costline/core/InsightImport")<
  InsightImport,
  {
    /**
     * Upserts every line as the system, staging them as they are read (the file is read once). A
     * bad line (`Left`, which the caller has described) stops the staging and discards what was
     * staged, but the rest of the stream is still read to its end, so that the caller sees every
     * bad line; then the import fails with `ValidationFailed` (`file`, `bad_lines`) and nothing
     * is imported.
     */
    readonly run: <E, R>(
      organizationId: OrganizationId,
      lines: Stream.Stream<Either.Either<InsightUpsert, unknown>, E, R>
    ) => Effect.Effect<InsightImportSummary, NotFound | ValidationFailed | StoreUnavailable | E, R>
  }
>() {}

/** The caller named the bad lines as it read them; this only says that there were some. */
const badLines = ValidationFailed.single("file", "bad_lines", "the file has bad lines; nothing was imported")

const keyOf = (key: InsightKey) => `${key.insight_type}\u0000${key.resource_id}`

/** What the import knows of a key while it stages a batch. */
interface Known {
  readonly insight: Insight
  /** Its published ETag when first read (None: it did not exist): the base of the import's change. */
  readonly base: Option.Option<string>
}

const knownOf = (current: CurrentInsight): Known => ({
  insight: current.insight,
  base: Option.getOrElse(current.staged, () => Option.some(current.insight.etag))
})

/**
 * @since 0.1.0
 * @category constructors
 */
export const make = Effect.gen(function*() {
  const organizations = yield* Organizations
  const insights = yield* Insights
  const repo = yield* InsightImportsRepo
  const tx = yield* Transactor
  const actor = Actor.system()

  const discardStale = Effect.gen(function*() {
    const before = new Date((yield* Clock.currentTimeMillis) - Duration.toMillis(STALE_AFTER))
    yield* Effect.forEach(yield* repo.staleImports(before), repo.discard, { discard: true })
  })

  return InsightImport.of({
    run: (organizationId, lines) =>
      Effect.gen(function*() {
        yield* organizations.get(organizationId)
        yield* discardStale
        const importId = yield* newId<"InsightImportId">()
        const summary = { created: 0, updated: 0, unchanged: 0 }
        let bad = false

        const stageBatch = (batch: Chunk.Chunk<Either.Either<InsightUpsert, unknown>>) =>
          Effect.gen(function*() {
            // After a bad line the rest is only read (for the caller to see its bad lines).
            if (bad) return
            const upserts: Array<InsightUpsert> = []
            for (const line of batch) {
              if (Either.isRight(line)) {
                upserts.push(line.right)
                continue
              }
              bad = true
              // Nothing staged is of use any more: freed now (a failure here is left to the
              // discard when the import fails).
              return yield* Effect.ignore(repo.discard(importId))
            }
            const known = new Map<string, Known>()
            for (const current of yield* repo.current(organizationId, importId, upserts)) {
              known.set(keyOf(current.insight), knownOf(current))
            }
            const now = yield* DateTime.now
            const touched = new Map<string, StagedInsight>()
            const audit: Array<AuditRecord> = []
            for (const input of upserts) {
              const key = keyOf(input)
              const before = known.get(key)
              const fresh = { id: (yield* newId<"InsightId">()) as InsightId, now }
              const merged = mergeUpsert(input, fresh)(Option.map(Option.fromNullable(before), (known) => known.insight))
              if (Option.isNone(merged)) {
                summary.unchanged++
                continue
              }
              const insight = merged.value
              const entry = before === undefined ? InsightAudit.created(insight) : InsightAudit.updated(before.insight, insight)
              if (before === undefined) summary.created++
              else summary.updated++
              audit.push(auditRecordOf(actor, organizationId, entry, { id: yield* newId<"AuditRecordId">(), at: now }, { trusted: true }))
              const next = { insight, base: before?.base ?? Option.none() }
              known.set(key, next)
              touched.set(key, next)
            }
            if (touched.size > 0) yield* repo.stage(organizationId, importId, [...touched.values()], audit, new Date(DateTime.toEpochMillis(now)))
          })

        // What changed through the API meanwhile gets the import's last line the ordinary way.
        const publish = tx.withTransaction(Effect.gen(function*() {
          const conflicts = yield* repo.conflicts(importId)
          yield* repo.publish(importId)
          for (const staged of conflicts) {
            const result = yield* insights.upsert(actor, organizationId, upsertOf(staged.insight))
            // Counted as staged; the key's first line may have been a creation or a change that
            // is one no more.
            const was = Option.isNone(staged.base) ? "created" : "updated"
            const is = result._tag === "Created" ? "created" : result._tag === "Updated" ? "updated" : "unchanged"
            summary[was]--
            summary[is]++
          }
        }))

        yield* repo.begin(organizationId, importId, new Date(yield* Clock.currentTimeMillis))
        yield* lines.pipe(
          Stream.rechunk(BATCH_SIZE),
          Stream.runForEachChunk(stageBatch),
          Effect.filterOrFail(() => !bad, () => badLines),
          Effect.zipRight(publish),
          // Also when interrupted: nothing staged may stay behind (a failed discard is left to
          // the next import, which finds the heartbeat stale).
          Effect.onError(() => Effect.ignore(repo.discard(importId)))
        )
        // Published: what is left staged is inert, tidied now or by a later import.
        yield* Effect.ignore(repo.discard(importId))
        return summary
      })
  })
})

/**
 * @since 0.1.0
 * @category layers
 */
export const layer = Layer.effect(InsightImport, make)
