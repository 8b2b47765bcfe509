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
import { arrayLiteral } from "../PgArrays.js"
import type { SqlValue } from "../SqlDialect.js"
import { RepoContext } from "./RepoContext.js"
import { leaveLockFree as lockGap, ROWS_PER_DISCARD } from "./Staging.js"
import { USAGE_COLUMNS, usageValues } from "./UsageRecordsRepo.js"

/** SQLite: rows per multi-row INSERT (25 parameters a row), far below its 32,766 parameters. */
const SQLITE_ROWS_PER_INSERT = 500

/** What a staged row stores, in order: the record's columns, then its key and its ingestion. */
const COLUMNS = ["organization_id", ...USAGE_COLUMNS.map(([name]) => name), "source_key", "import_id"]
const COLUMN_LIST = COLUMNS.join(", ")
const PG_TYPES = ["text", ...USAGE_COLUMNS.map(([, type]) => type), "text", "text"]

/**
 * Postgres: a whole batch in one statement, one array parameter per column (a multi-row INSERT
 * would bind 25 parameters a row and send a statement text that grows with the batch).
 */
const PG_INSERT = `INSERT INTO usage_records (${COLUMN_LIST}) SELECT * FROM unnest(${
  PG_TYPES.map((type, i) => `$${i + 1}::${type}[]`).join(", ")
})`

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
      recoverableWrite(Effect.gen(function*() {
        const alive = yield* sql`UPDATE usage_imports SET heartbeat_at = ${isoText(now)} WHERE id = ${ingestionId} RETURNING id`
        if (alive.length === 0) return yield* Effect.fail(notPending(ingestionId))
        if (rows.length === 0) return
        // The visible records under these keys (published, not replaced yet), in one statement:
        // the keys are one parameter, a JSON array on SQLite and an array on Postgres.
        const keys = rows.map((row) => row.key)
        yield* sql`UPDATE usage_records SET replaced_by = ${ingestionId}
                   WHERE organization_id = ${organizationId} AND ${
          sql.onDialectOrElse({
            pg: () => sql`source_key = ANY(${arrayLiteral(keys)}::text[])`,
            orElse: () => sql`source_key IN (SELECT value FROM json_each(${JSON.stringify(keys)}))`
          })
        }
                     AND replaced_by IS NULL AND (import_id IS NULL OR import_id <> ${ingestionId})`
        // The rows' values in one flat array, row after row: no object per row.
        const values: Array<SqlValue> = []
        for (const row of rows) {
          values.push(organizationId)
          usageValues(dialect.boolean, row.record, values)
          values.push(row.key, ingestionId)
        }
        const width = COLUMNS.length
        yield* sql.onDialectOrElse({
          pg: () => sql.unsafe(PG_INSERT, COLUMNS.map((_, column) => arrayLiteral(values, column, width))),
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
