/**
 * SQLite's side of the shared repositories: better-sqlite3 error codes, booleans as 0/1, and the
 * audit order. SQLite has one writer at a time and a write holds the lock from BEGIN IMMEDIATE to
 * COMMIT, so the AUTOINCREMENT sequence a record gets is its commit order: the position is the
 * sequence, and every committed row is safe to deliver.
 */
import { Errors } from "@costline/core"
import { type AuditOrdering, type SqlFailure, SqlDialect } from "@costline/store-sql"
import { SqlClient } from "@effect/sql/SqlClient"
import type { SqlError } from "@effect/sql/SqlError"
import { Effect, Either, Layer } from "effect"

const UNIQUE_CODES = new Set(["SQLITE_CONSTRAINT_UNIQUE", "SQLITE_CONSTRAINT_PRIMARYKEY"])
/** Busy or locked by another process, disk full, I/O trouble, an unopenable or read-only file. */
const UNAVAILABLE_CODE = /^SQLITE_(BUSY|LOCKED|IOERR|CANTOPEN|FULL|READONLY|NOMEM|INTERRUPT|PROTOCOL)(_|$)/

export const classify = (error: SqlError): SqlFailure => {
  const code: unknown = (error.cause as { readonly code?: unknown } | undefined)?.code
  if (typeof code !== "string") return "bug"
  if (UNIQUE_CODES.has(code)) return "unique_violation"
  return UNAVAILABLE_CODE.test(code) ? "unavailable" : "bug"
}

/** A sequence as issued by `positionOf`: a positive safe integer in canonical form. */
export const parseSequence = (position: string): Either.Either<number, Errors.InvalidPageToken> => {
  const value = Number(position)
  return /^[1-9][0-9]*$/.test(position) && Number.isSafeInteger(value)
    ? Either.right(value)
    : Either.left(new Errors.InvalidPageToken({ message: "page_token does not point into this audit log" }))
}

export const sequenceOrdering = (sql: SqlClient): AuditOrdering => ({
  positionColumns: sql`seq`,
  visible: sql.literal("1 = 1"),
  after: (position, order) =>
    Either.map(parseSequence(position), (seq) => (order === "asc" ? sql`seq > ${seq}` : sql`seq < ${seq}`)),
  orderBy: (order) => sql.literal(order === "asc" ? "seq ASC" : "seq DESC"),
  positionOf: (row) => String(row["seq"])
})

export const layer = Layer.effect(
  SqlDialect,
  Effect.map(SqlClient, (sql) =>
    SqlDialect.of({
      classify,
      // better-sqlite3 cannot bind booleans.
      boolean: (value) => (value ? 1 : 0),
      audit: sequenceOrdering(sql)
    }))
)
