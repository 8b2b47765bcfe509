/**
 * Usage records an ingestion owns by key (`source_key`), staged (migration 1600): the ingestion
 * is a `usage_imports` entry with `keyed` set (one per organization, by a partial unique index).
 * Each staged batch, in its own short transaction, inserts the new records with its `import_id`;
 * the visible records under their keys are marked `replaced_by` the ingestion, on SQLite by the
 * same batch, on Postgres by `seal` after the last one (set-based, a range of the staged rows at a
 * time). Scans (see UsageRecordsRepo) show a record with an `import_id` only once its import is no
 * longer pending, and a record `replaced_by` an ingestion only while that one is pending:
 * publishing, which deletes the entry, swaps old for new in one statement. The replaced records
 * are then deleted in batches; a failed or interrupted ingestion is discarded by
 * UsageRecordsRepo's `discard`, which also takes its marks back. Rows imported by `usage import`
 * have no key and are never touched.
 *
 * Postgres writes a batch with `COPY … FROM STDIN` (SqlDialect's `copyIn`): the cheapest way in
 * for the server, and why the marks wait for `seal`: one `= ANY(keys)` UPDATE a batch was planned
 * on the statistics of a table that grows faster than autovacuum analyses it, and scanned the
 * whole table each time (docs/performance.md, "Cost-intelligence ingestion at scale").
 */
import { Errors, KeyedUsageRepo } from "@costline/core"
import type { SqlError } from "@effect/sql/SqlError"
import { Effect, Layer } from "effect"
import { isoText } from "../Columns.js"
import { copyEscape } from "../PgCopy.js"
import type { SqlValue } from "../SqlDialect.js"
import { RepoContext } from "./RepoContext.js"
import { leaveLockFree as lockGap, ROWS_PER_DISCARD } from "./Staging.js"
import { USAGE_COLUMNS, usageCopyText, usageValues } from "./UsageRecordsRepo.js"

/** SQLite: rows per multi-row INSERT (25 parameters a row), far below its 32,766 parameters. */
const SQLITE_ROWS_PER_INSERT = 500

/** What a staged row stores, in order: the record's columns, then its key and its ingestion. */
const COLUMNS = ["organization_id", ...USAGE_COLUMNS.map(([name]) => name), "source_key", "import_id"]
const COLUMN_LIST = COLUMNS.join(", ")

/** Postgres: a whole batch in one COPY (see PgCopy for its text format). */
const PG_COPY = `COPY usage_records (${COLUMN_LIST}) FROM STDIN`

/** Postgres: staged rows `seal` marks the replaced records of per statement (a range of `seq`). */
export const SEAL_SEQS = 50_000

/** SQLite: the INSERT of `rows` rows, built once per row count (all batches but the last are full). */
const sqliteInserts = new Map<number, string>()
const sqliteInsert = (rows: number) => {
  let text = sqliteInserts.get(rows)
  if (text === undefined) {
    const row = `(${COLUMNS.map(() => "?").join(",")})`
    text = `INSERT INTO usage_records (${COLUMN_LIST}) VALUES ${Array.from({ length: rows }, () => row).join(",")}`
    sqliteInserts.set(rows, text)
  }
  return text
}

const notPending = (ingestionId: string) =>
  new Errors.Conflict({ message: `the ingestion ${ingestionId} is no longer pending (discarded as stale); nothing was ingested` })

export const make = Effect.gen(function*() {
  const { dialect, errors, recoverableWrite, sql, write } = yield* RepoContext
  const leaveLockFree = lockGap(sql)
  const keyed = dialect.boolean(true)
  const copyIn = dialect.copyIn

  /**
   * Postgres: this transaction's commit does not wait for its WAL to reach the disk. What a
   * staging transaction writes is invisible until `publish`, whose commit does wait, and WAL is
   * flushed in order: once the publication is durable, so is everything staged before it; a crash
   * before then loses at most staged batches of an ingestion that was never published (discarded
   * as stale later). See docs/decisions.md.
   */
  const asynchronousCommit: Effect.Effect<void, SqlError> = copyIn === undefined
    ? Effect.void
    : Effect.asVoid(sql`SET LOCAL synchronous_commit = off`)

  /** Renews the heartbeat of a pending ingestion; Conflict when it is no longer pending. */
  const alive = (ingestionId: string, now: Date) =>
    Effect.zipRight(
      asynchronousCommit,
      sql`UPDATE usage_imports SET heartbeat_at = ${isoText(now)} WHERE id = ${ingestionId} RETURNING id`.pipe(
        Effect.filterOrFail((rows) => rows.length > 0, () => notPending(ingestionId))
      )
    )

  /**
   * Postgres: marks the visible records under the keys of the rows staged with `seq` in (from, to],
   * with the ingestion pending (its heartbeat renewed in the same transaction, as a batch does).
   */
  const sealRange = (organizationId: string, ingestionId: string, from: number, to: number, now: Date) =>
    recoverableWrite(Effect.zipRight(
      alive(ingestionId, now),
      sql`UPDATE usage_records SET replaced_by = ${ingestionId}
          WHERE organization_id = ${organizationId}
            AND source_key IN (SELECT source_key FROM usage_records
                               WHERE seq > ${from} AND seq <= ${to} AND import_id = ${ingestionId})
            AND replaced_by IS NULL AND (import_id IS NULL OR import_id <> ${ingestionId})`
    ).pipe(errors.orUnavailable))

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
      recoverableWrite(
        sql`
          INSERT INTO usage_imports (id, organization_id, floor_seq, started_at, heartbeat_at, keyed${
          copyIn === undefined ? sql.literal("") : sql.literal(", replaces_keys")
        })
          VALUES (${ingestionId}, ${organizationId}, (SELECT coalesce(max(seq), 0) FROM usage_records),
            ${isoText(now)}, ${isoText(now)}, ${keyed}${
          // Postgres (migration 1900): whether `seal` has anything to look for.
          copyIn === undefined ? sql.literal("") : sql`, EXISTS (
              SELECT 1 FROM usage_records WHERE organization_id = ${organizationId} AND source_key IS NOT NULL)`
        })`.pipe(
          errors.uniqueAs(() =>
            new Errors.Conflict({
              message: "another ingestion of this organization's warehouse exports is in progress; try again when it is done " +
                "(one left by a process that died is discarded 10 minutes after its last batch)"
            })
          )
        )
      ),

    stage: (organizationId, ingestionId, rows, now) =>
      recoverableWrite(Effect.gen(function*() {
        yield* alive(ingestionId, now)
        if (rows.length === 0) return
        // SQLite: the visible records under these keys (published, not replaced yet), in one
        // statement, the keys one JSON array parameter. Postgres marks them in `seal`.
        if (copyIn === undefined) {
          yield* sql`UPDATE usage_records SET replaced_by = ${ingestionId}
                     WHERE organization_id = ${organizationId}
                       AND source_key IN (SELECT value FROM json_each(${JSON.stringify(rows.map((row) => row.key))}))
                       AND replaced_by IS NULL AND (import_id IS NULL OR import_id <> ${ingestionId})`
        }
        if (copyIn !== undefined) {
          // Postgres: the batch as COPY text, a line a row, written straight from the records.
          const organization = copyEscape(organizationId)
          const ingestion = copyEscape(ingestionId)
          const lines: Array<string> = new Array(rows.length + 1)
          for (let i = 0; i < rows.length; i++) {
            const row = rows[i]!
            lines[i] = `${organization}\t${usageCopyText(row.record)}\t${copyEscape(row.key)}\t${ingestion}`
          }
          lines[rows.length] = ""
          return yield* copyIn(PG_COPY, lines.join("\n"))
        }
        // The rows' values in one flat array, row after row: no object per row.
        const values: Array<SqlValue> = []
        for (const row of rows) {
          values.push(organizationId)
          usageValues(dialect.boolean, row.record, values)
          values.push(row.key, ingestionId)
        }
        const width = COLUMNS.length
        yield* sql.onDialectOrElse({
          pg: () => Effect.dieMessage("the Postgres dialect has no COPY"),
          orElse: () =>
            Effect.forEach(
              Array.from({ length: Math.ceil(rows.length / SQLITE_ROWS_PER_INSERT) }, (_, i) => i * SQLITE_ROWS_PER_INSERT),
              (from) => {
                const upTo = Math.min(rows.length, from + SQLITE_ROWS_PER_INSERT)
                return sql.unsafe(sqliteInsert(upTo - from), values.slice(from * width, upTo * width))
              },
              { discard: true }
            )
        })
      }).pipe(errors.orUnavailable)).pipe(Effect.zipLeft(leaveLockFree)),

    seal: (organizationId, ingestionId, now) =>
      copyIn === undefined
        ? Effect.void
        : Effect.gen(function*() {
          const [bounds] = yield* sql<{
            readonly floor_seq: string | number
            readonly top: string | number | null
            readonly replaces_keys: boolean
          }>`
            SELECT floor_seq, replaces_keys, (SELECT max(seq) FROM usage_records) AS top FROM usage_imports WHERE id = ${ingestionId}`
            .pipe(errors.orUnavailable)
          if (bounds === undefined) return yield* Effect.fail(notPending(ingestionId))
          // The organization had no keyed record when this began: nothing to replace.
          if (!bounds.replaces_keys) return
          const top = Number(bounds.top ?? 0)
          for (let from = Number(bounds.floor_seq); from < top; from += SEAL_SEQS) {
            yield* sealRange(organizationId, ingestionId, from, Math.min(top, from + SEAL_SEQS), now)
          }
        }),

    publish: (ingestionId) =>
      recoverableWrite(
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
