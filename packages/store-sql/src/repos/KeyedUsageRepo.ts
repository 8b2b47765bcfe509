/**
 * Usage records an ingestion owns by key (`source_key`, unique per organization where set):
 * replacing a batch deletes the rows stored under its keys, then inserts the batch, both inside
 * the caller's transaction. Rows imported by `usage import` have no key and are never touched.
 */
import { KeyedUsageRepo } from "@costline/core"
import { Effect, Layer } from "effect"
import { RepoContext } from "./RepoContext.js"
import { usageRow } from "./UsageRecordsRepo.js"

/** Keys per DELETE and rows per INSERT (23 parameters a row): below both databases' limits. */
const ROWS_PER_STATEMENT = 500

export const make = Effect.gen(function*() {
  const { dialect, errors, sql, write } = yield* RepoContext

  return KeyedUsageRepo.of({
    replace: (organizationId, rows) =>
      write(
        Effect.forEach(
          Array.from({ length: Math.ceil(rows.length / ROWS_PER_STATEMENT) }, (_, i) =>
            rows.slice(i * ROWS_PER_STATEMENT, (i + 1) * ROWS_PER_STATEMENT)),
          (chunk) =>
            Effect.zipRight(
              sql`DELETE FROM usage_records WHERE organization_id = ${organizationId}
                AND ${sql.in("source_key", chunk.map((row) => row.key))}`,
              sql`INSERT INTO usage_records ${
                sql.insert(chunk.map((row) => ({ ...usageRow(dialect.boolean, organizationId, row.record), source_key: row.key })))
              }`
            ),
          { discard: true }
        ).pipe(errors.orUnavailable)
      )
  })
})

export const layer = Layer.effect(KeyedUsageRepo, make)
