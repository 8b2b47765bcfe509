/**
 * Postgres's side of the shared repositories: SQLSTATE codes, native booleans, and the audit
 * order. Sequences are handed out at INSERT, not at COMMIT, so with concurrent writers a reader
 * following `seq` alone would skip rows committed late. Each row instead records its top-level
 * transaction id (`xid8`, never wraps); a reader returns only rows of transactions older than
 * every transaction still running (`pg_snapshot_xmin`), in `(xid, seq)` order. Nothing can later
 * appear before a delivered row, so a cursor at `xid:seq` misses nothing and repeats nothing.
 */
import { InvalidPageToken } from "@costline/core"
import { type AuditOrdering, type SqlFailure, SqlDialect } from "@costline/store-sql"
import { SqlClient } from "@effect/sql/SqlClient"
import type { SqlError } from "@effect/sql/SqlError"
import { Effect, Either, Layer } from "effect"

const UNIQUE_VIOLATION = "23505"
/**
 * Connection exceptions (08), insufficient resources (53), operator intervention such as a
 * shutdown or a statement timeout (57), serialization failures and deadlocks (40), a lock not
 * available (55P03), and the socket errors of node-postgres.
 */
const UNAVAILABLE_SQLSTATE = /^(08|53|57|40)...$|^55P03$/
const UNAVAILABLE_SOCKET = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EPIPE",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EHOSTUNREACH",
  "ENETUNREACH"
])
/** Failures node-postgres and @effect/sql-pg report without a code. */
const UNAVAILABLE_MESSAGE = new RegExp(
  [
    "connection terminated",
    "timeout exceeded when trying to connect",
    "not queryable",
    "failed to acquire connection",
    "connection error",
    "failed to connect"
  ].join("|"),
  "i"
)

export const classify = (error: SqlError): SqlFailure => {
  const cause = error.cause as { readonly code?: unknown; readonly message?: unknown } | undefined
  const code = typeof cause?.code === "string" ? cause.code : undefined
  if (code === UNIQUE_VIOLATION) return "unique_violation"
  if (code !== undefined && (UNAVAILABLE_SQLSTATE.test(code) || UNAVAILABLE_SOCKET.has(code))) return "unavailable"
  const messages = [error.message, typeof cause?.message === "string" ? cause.message : ""]
  return code === undefined && messages.some((message) => UNAVAILABLE_MESSAGE.test(message)) ? "unavailable" : "bug"
}

const notOurs = () => new InvalidPageToken({ message: "page_token does not point into this audit log" })

/** A position as issued by `positionOf`: `<xid>:<seq>`, both unsigned 64-bit integers. */
export const parsePosition = (
  position: string
): Either.Either<{ readonly xid: string; readonly seq: string }, InvalidPageToken> => {
  const match = /^(0|[1-9][0-9]{0,19}):([1-9][0-9]{0,18})$/.exec(position)
  if (match === null) return Either.left(notOurs())
  const [, xid, seq] = match as unknown as [string, string, string]
  // xid8 and bigint bounds: a larger number would be a database error, not an empty page.
  return BigInt(xid) <= 18446744073709551615n && BigInt(seq) <= 9223372036854775807n
    ? Either.right({ xid, seq })
    : Either.left(notOurs())
}

export const snapshotOrdering = (sql: SqlClient): AuditOrdering => ({
  // Aliased apart from the columns: ORDER BY would otherwise sort by the text aliases.
  positionColumns: sql.literal("xid::text AS position_xid, seq::text AS position_seq"),
  // A scalar subquery is evaluated once per statement, on the statement's own snapshot.
  visible: sql.literal("xid < (SELECT pg_snapshot_xmin(pg_current_snapshot()))"),
  after: (position, order) =>
    Either.map(parsePosition(position), ({ seq, xid }) =>
      order === "asc"
        ? sql`(xid, seq) > (${xid}::xid8, ${seq}::bigint)`
        : sql`(xid, seq) < (${xid}::xid8, ${seq}::bigint)`),
  orderBy: (order) => sql.literal(order === "asc" ? "xid ASC, seq ASC" : "xid DESC, seq DESC"),
  positionOf: (row) => `${row["position_xid"]}:${row["position_seq"]}`
})

export const layer = Layer.effect(
  SqlDialect,
  Effect.map(SqlClient, (sql) => SqlDialect.of({ classify, boolean: (value) => value, audit: snapshotOrdering(sql) }))
)
