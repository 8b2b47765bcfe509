/** When each API key last authenticated a request (null: never), for `keys list` and `GET /v2/api-keys`. */
import { SqlClient } from "@effect/sql/SqlClient"
import { Effect } from "effect"

export default Effect.flatMap(SqlClient, (sql) => sql.unsafe(`ALTER TABLE api_keys ADD COLUMN last_used_at timestamptz`))
