/**
 * Usage records an ingestion owns by key (`source_key`), staged (migration 1600): the ingestion
 * is a `usage_imports` entry with `keyed` set (one per organization, by a partial unique index).
 * Each staged batch, in its own short transaction, marks the visible records under its keys
 * `replaced_by` the ingestion and inserts the new ones with its `import_id`. Scans (see
 * UsageRecordsRepo) show a record with an `import_id` only once its import is no longer pending,
 * and a record `replaced_by` an ingestion only while that one is pending: publishing, which
 * deletes the entry, swaps old for new in one statement. The replaced records are then deleted in
 * batches; a failed or interrupted ingestion is discarded by UsageRecordsRepo's `discard`, which
 * also takes its marks back. Rows imported by `usage import` have no key and are never touched.
 */
import { Errors, KeyedUsageRepo } from "@costline/core"
import { Effect, Layer } from "effect"
import { isoText } from "../Columns.js"
import { RepoContext } from "./RepoContext.js"
import { leaveLockFree as lockGap, ROWS_PER_DISCARD } from "./Staging.js"
import { usageRow } from "./UsageRecordsRepo.js"

/** Keys per UPDATE and rows per INSERT (24 parameters a row): below both databases' limits. */
const ROWS_PER_STATEMENT = 500

const notPending = (ingestionId: string) =>
  new Errors.Conflict({ message: `the ingestion ${ingestionId} is no longer pending (discarded as stale); nothing was ingested` })

export const make = Effect.gen(function*() {
  const { dialect, errors, sql, write } = yield* RepoContext
  const leaveLockFree = lockGap(sql)
  const keyed = dialect.boolean(true)

  /** One transaction: deletes up to ROWS_PER_DISCARD records replaced by published ingestions; true when it did. */
  const purgeBatch = write(
    sql`DELETE FROM usage_records WHERE seq IN (
          SELECT seq FROM usage_records
          WHERE replaced_by IS NOT NULL AND replaced_by NOT IN (SELECT id FROM usage_imports)
          LIMIT ${ROWS_PER_DISCARD})
        RETURNING seq`.pipe(Effect.map((rows) => rows.length > 0), errors.orUnavailable)
  )
  const purgeReplaced: Effect.Effect<void, Errors.StoreUnavailable> = Effect.flatMap(
    purgeBatch,
    (more) => more ? Effect.zipRight(leaveLockFree, Effect.suspend(() => purgeReplaced)) : Effect.void
  )

  return KeyedUsageRepo.KeyedUsageRepo.of({
    begin: (organizationId, ingestionId, now) =>
      write(
        sql`
          INSERT INTO usage_imports (id, organization_id, floor_seq, started_at, heartbeat_at, keyed)
          VALUES (${ingestionId}, ${organizationId}, (SELECT coalesce(max(seq), 0) FROM usage_records),
            ${isoText(now)}, ${isoText(now)}, ${keyed})`.pipe(
          errors.uniqueAs(() =>
            new Errors.Conflict({
              message: "another ingestion of this organization's warehouse exports is in progress; try again when it is done " +
                "(one left by a process that died is discarded 10 minutes after its last batch)"
            })
          )
        )
      ),

    stage: (organizationId, ingestionId, rows, now) =>
      write(Effect.gen(function*() {
        const alive = yield* sql`UPDATE usage_imports SET heartbeat_at = ${isoText(now)} WHERE id = ${ingestionId} RETURNING id`
        if (alive.length === 0) return yield* Effect.fail(notPending(ingestionId))
        for (let at = 0; at < rows.length; at += ROWS_PER_STATEMENT) {
          const chunk = rows.slice(at, at + ROWS_PER_STATEMENT)
          // The visible records under these keys: published (no pending import) and not replaced yet.
          yield* sql`UPDATE usage_records SET replaced_by = ${ingestionId}
                     WHERE organization_id = ${organizationId} AND ${sql.in("source_key", chunk.map((row) => row.key))}
                       AND replaced_by IS NULL AND (import_id IS NULL OR import_id <> ${ingestionId})`
          yield* sql`INSERT INTO usage_records ${
            sql.insert(chunk.map((row) => ({
              ...usageRow(dialect.boolean, organizationId, row.record),
              source_key: row.key,
              import_id: ingestionId
            })))
          }`
        }
      }).pipe(errors.orUnavailable)).pipe(Effect.zipLeft(leaveLockFree)),

    publish: (ingestionId) =>
      write(
        sql`DELETE FROM usage_imports WHERE id = ${ingestionId} RETURNING id`.pipe(
          errors.orUnavailable,
          Effect.filterOrFail((rows) => rows.length > 0, () => notPending(ingestionId)),
          Effect.asVoid
        )
      ),

    purgeReplaced
  })
})

export const layer = Layer.effect(KeyedUsageRepo.KeyedUsageRepo, make)
