/**
 * Master-key checks (core secrets/KeyCheck): per key id, a known text sealed under that master
 * key, as the envelope JSON. A configured key that cannot open its check is refused at start.
 */
import { SqlClient } from "@effect/sql/SqlClient"
import { Effect } from "effect"

export default Effect.flatMap(
  SqlClient,
  (sql) =>
    sql.unsafe(`CREATE TABLE secret_key_check (
      key_id text PRIMARY KEY,
      sealed text NOT NULL
    )`)
)
