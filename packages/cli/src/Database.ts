/**
 * `--database` URLs: `sqlite:<path>`, `sqlite::memory:` or `postgres://…`. Default from
 * COSTLINE_DATABASE_URL, else `sqlite:.costline/costline.db`.
 */
import type { Core, Errors } from "@costline/core"
import type { SqlClient } from "@effect/sql/SqlClient"
import type { MigrationFailed } from "@costline/store-sql"
import { Effect, Either, Layer } from "effect"
import { mkdirSync } from "node:fs"
import { dirname, resolve } from "node:path"

export const DEFAULT_DATABASE_URL = "sqlite:.costline/costline.db"

export type Database =
  | { readonly _tag: "sqlite"; readonly filename: string }
  | { readonly _tag: "postgres"; readonly url: string }

export const parseDatabaseUrl = (raw: string): Either.Either<Database, string> => {
  if (raw.startsWith("sqlite:")) {
    const filename = raw.slice("sqlite:".length).replace(/^\/\/(?=\/)/, "")
    return filename.length === 0
      ? Either.left("sqlite URL needs a path, e.g. sqlite:.costline/costline.db or sqlite::memory:")
      : Either.right({ _tag: "sqlite", filename })
  }
  if (/^postgres(ql)?:\/\//.test(raw)) return Either.right({ _tag: "postgres", url: raw })
  return Either.left(`unsupported database URL '${raw}' (use sqlite:<path>, sqlite::memory: or postgres://…)`)
}

/** How messages name a database: the SQLite file's absolute path, or the Postgres URL without its password. */
export const describeDatabase = (database: Database): string => {
  if (database._tag === "sqlite") return database.filename === ":memory:" ? "sqlite::memory:" : `sqlite:${resolve(database.filename)}`
  const url = new URL(database.url)
  if (url.password !== "") url.password = "***"
  return url.toString()
}

export const resolveDatabaseUrl = (flag: string | undefined): string =>
  flag ?? (process.env.COSTLINE_DATABASE_URL || undefined) ?? DEFAULT_DATABASE_URL

/**
 * What both stores provide. Each also provides optional services that core and http look up
 * when present (`CredentialChanges`: both, unless `COSTLINE_KEY_CACHE=off` on Postgres; `StorePool`: both).
 */
export type StoreLayer = Layer.Layer<SqlClient | Core.Repositories, MigrationFailed | Errors.StoreUnavailable>

/**
 * The store layer for a database; creates the SQLite file's folder on first use. Each store (and
 * its driver: pg, or the SQLite addon) is loaded only when a command opens one of its kind, so a
 * SQLite server never evaluates the Postgres stack and the other way round (docs/decisions.md).
 */
export const storeLayer = (database: Database, options: { readonly migrate?: boolean } = {}): StoreLayer => {
  if (database._tag === "postgres") {
    // Off behind a pooler that cannot LISTEN (pgbouncer in transaction mode): see docs/operations.md.
    const verifiedKeyCache = process.env.COSTLINE_KEY_CACHE !== "off"
    // Off behind a pooler that moves statements between server connections (the same pgbouncer).
    const preparedStatements = process.env.COSTLINE_PREPARED_STATEMENTS !== "off"
    return Layer.unwrapEffect(
      Effect.map(
        Effect.promise(() => import("@costline/store-pg")),
        ({ PgStore }) => PgStore.layer({ url: database.url, migrate: options.migrate ?? true, verifiedKeyCache, preparedStatements })
      )
    )
  }
  return Layer.unwrapEffect(
    Effect.map(Effect.promise(() => import("@costline/store-sqlite")), ({ SqliteStore }) => {
      if (database.filename !== ":memory:") mkdirSync(dirname(database.filename), { recursive: true })
      return SqliteStore.layer({ filename: database.filename, migrate: options.migrate ?? true })
    })
  )
}
