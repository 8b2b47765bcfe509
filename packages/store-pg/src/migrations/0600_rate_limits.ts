/**
 * Rate-limit state shared by every instance: one row per credential holding its GCRA
 * theoretical arrival time (ms since the epoch) and whether its last request was admitted.
 */
import { SqlClient } from "@effect/sql/SqlClient"
import { Effect } from "effect"

export default Effect.flatMap(
  SqlClient,
  (sql) =>
    sql.unsafe(`CREATE TABLE rate_limits (
      key text PRIMARY KEY,
      tat_ms double precision NOT NULL,
      allowed boolean NOT NULL
    )`)
)
