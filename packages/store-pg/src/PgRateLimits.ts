/**
 * core's `RateLimitRepo` on Postgres: `Gcra.step` as ONE statement. The upsert locks the key's
 * row, so concurrent requests from any number of instances are applied one after the other, each
 * on the TAT the previous one left. The arithmetic is `Gcra.step`'s, in the same order, on the
 * same IEEE doubles (float8), so both agree to the bit.
 */
import { RateLimitRepo } from "@costline/core"
import { makeStoreErrors, SqlDialect } from "@costline/store-sql"
import { SqlClient } from "@effect/sql/SqlClient"
import type { Fragment } from "@effect/sql/Statement"
import { Effect, Layer } from "effect"

interface Row {
  readonly allowed: boolean
  readonly tat_ms: number
}

export const make: Effect.Effect<RateLimitRepo.RateLimitRepo["Type"], never, SqlClient | SqlDialect> = Effect.gen(function*() {
  const sql = yield* SqlClient
  const errors = makeStoreErrors((yield* SqlDialect).classify)
  return RateLimitRepo.RateLimitRepo.of({
    take: (key, rule, nowMs) => {
      const now = sql`${nowMs}::float8`
      const interval = sql`${rule.intervalMs}::float8`
      const limit = sql`${rule.limitMs}::float8`
      // A key never seen starts from now, as `Gcra.step` does with an undefined TAT.
      const admits = (tat: Fragment) => sql`GREATEST(${tat}, ${now}) + ${interval} - ${now} <= ${limit}`
      const stepped = (tat: Fragment) =>
        sql`CASE WHEN ${admits(tat)} THEN GREATEST(${tat}, ${now}) + ${interval} ELSE ${tat} END`
      return sql<Row>`
        INSERT INTO rate_limits AS current (key, tat_ms, allowed)
        VALUES (${key}, ${stepped(now)}, ${admits(now)})
        ON CONFLICT (key) DO UPDATE SET
          tat_ms = ${stepped(sql`current.tat_ms`)},
          allowed = ${admits(sql`current.tat_ms`)}
        RETURNING allowed, tat_ms`.pipe(
        Effect.map(([row]) => ({ allowed: row!.allowed, tatMs: Number(row!.tat_ms) })),
        errors.orUnavailable
      )
    }
  })
})

export const layer = Layer.effect(RateLimitRepo.RateLimitRepo, make)
