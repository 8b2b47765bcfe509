/**
 * The store every example runs on, chosen by one environment variable: SQLite by default (the
 * file, or `:memory:`, that the example names), Postgres when `COSTLINE_DATABASE_URL` is a
 * `postgres://` URL. Nothing else in an example changes with it.
 */
import type { Core } from "@costline/core"
import { PgStore } from "@costline/store-pg"
import { SqliteStore } from "@costline/store-sqlite"
import type { SqlClient } from "@effect/sql"
import type { Layer } from "effect"
import { mkdirSync } from "node:fs"
import { dirname } from "node:path"

export const storeFromEnvironment = (sqliteFile: string): Layer.Layer<Core.Repositories | SqlClient.SqlClient, unknown> => {
  const url = process.env["COSTLINE_DATABASE_URL"]
  if (url !== undefined && /^postgres(ql)?:\/\//.test(url)) return PgStore.layer({ url })
  if (sqliteFile !== ":memory:") mkdirSync(dirname(sqliteFile), { recursive: true })
  return SqliteStore.layer({ filename: sqliteFile })
}
