/**
 * Postgres's side of the shared repositories: SQLSTATE codes, native booleans, and the audit
 * order. Sequences are handed out at INSERT, not at COMMIT, so with concurrent writers a reader
 * following `seq` would skip rows committed late. Each audit row instead gets its tenant's next
 * `stamp` at COMMIT (migration 0800: a deferred trigger under the tenant's counter row lock), so
 * stamps are handed out in commit order and a snapshot that sees a stamp sees every lower one:
 * a cursor at a stamp misses nothing and repeats nothing, and no transaction elsewhere holds the
 * feed back. The proof is in docs/storage.md.
 */
import { Errors } from "@costline/core"
import type { Audit } from "@costline/core"
import { type AuditOrdering, type SqlFailure, SqlDialect } from "@costline/store-sql"
import { SqlClient } from "@effect/sql/SqlClient"
import type { SqlError } from "@effect/sql/SqlError"
import { Effect, Either, Layer } from "effect"
import { copyIn } from "./PgCopyIn.js"

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

/**
 * 55000 (object_not_in_prerequisite_state) is mostly a bug in our SQL, but when connecting it is
 * a database that refuses connections (`ALTER DATABASE … ALLOW_CONNECTIONS false`): unavailable.
 */
const NOT_IN_PREREQUISITE_STATE = "55000"
const REFUSING_CONNECTIONS = /not currently accepting connections|failed to acquire connection/i

export const classify = (error: SqlError): SqlFailure => {
  const cause = error.cause as { readonly code?: unknown; readonly message?: unknown } | undefined
  const code = typeof cause?.code === "string" ? cause.code : undefined
  if (code === UNIQUE_VIOLATION) return "unique_violation"
  if (code !== undefined && (UNAVAILABLE_SQLSTATE.test(code) || UNAVAILABLE_SOCKET.has(code))) return "unavailable"
  const messages = [error.message, typeof cause?.message === "string" ? cause.message : ""]
  if (code === NOT_IN_PREREQUISITE_STATE) {
    return messages.some((message) => REFUSING_CONNECTIONS.test(message)) ? "unavailable" : "bug"
  }
  return code === undefined && messages.some((message) => UNAVAILABLE_MESSAGE.test(message)) ? "unavailable" : "bug"
}

const notOurs = () => new Errors.InvalidPageToken({ message: "page_token does not point into this audit log" })

const MAX_BIGINT = 9223372036854775807n

/**
 * A position as issued by `positionOf`: the record's stamp, a positive bigint. Tokens issued
 * before migration 0800 carry `<xid>:<seq>` (unsigned 64-bit integers); they still resume.
 */
export type Position =
  | { readonly _tag: "Stamp"; readonly stamp: string }
  | { readonly _tag: "Legacy"; readonly xid: string; readonly seq: string }

export const parsePosition = (position: string): Either.Either<Position, Errors.InvalidPageToken> => {
  const stamp = /^[1-9][0-9]{0,18}$/.exec(position)
  // bigint bounds: a larger number would be a database error, not an empty page.
  if (stamp !== null) return BigInt(position) <= MAX_BIGINT ? Either.right({ _tag: "Stamp", stamp: position }) : Either.left(notOurs())
  const legacy = /^(0|[1-9][0-9]{0,19}):([1-9][0-9]{0,18})$/.exec(position)
  if (legacy === null) return Either.left(notOurs())
  const [, xid, seq] = legacy as unknown as [string, string, string]
  return BigInt(xid) <= 18446744073709551615n && BigInt(seq) <= MAX_BIGINT
    ? Either.right({ _tag: "Legacy", xid, seq })
    : Either.left(notOurs())
}

export const stampOrdering = (sql: SqlClient): AuditOrdering => {
  /**
   * The stamp a pre-0800 position stands for: migration 0800 numbered the old rows in the old
   * `(xid, seq)` order, and everything up to an old position had been delivered (nothing could
   * appear before it), so "after (xid, seq)" is "after the last stamp at or before it".
   */
  const legacyBound = (organizationId: string, { seq, xid }: { readonly xid: string; readonly seq: string }, order: Audit.SortOrder) =>
    order === "asc"
      ? sql`coalesce((SELECT max(stamp) FROM audit_records
          WHERE organization_id = ${organizationId} AND (xid, seq) <= (${xid}::xid8, ${seq}::bigint)), 0)`
      : sql`coalesce((SELECT min(stamp) FROM audit_records
          WHERE organization_id = ${organizationId} AND (xid, seq) >= (${xid}::xid8, ${seq}::bigint)), ${MAX_BIGINT.toString()}::bigint)`
  return {
    // Aliased apart from the column: ORDER BY would otherwise sort by the text alias.
    positionColumns: sql.literal("stamp::text AS position_stamp"),
    // Unstamped rows belong to transactions that have not committed yet.
    visible: sql.literal("stamp IS NOT NULL"),
    after: (position, order, organizationId) =>
      Either.map(parsePosition(position), (parsed) => {
        const bound = parsed._tag === "Stamp" ? sql`${parsed.stamp}::bigint` : legacyBound(organizationId, parsed, order)
        return order === "asc" ? sql`stamp > ${bound}` : sql`stamp < ${bound}`
      }),
    orderBy: (order) => sql.literal(order === "asc" ? "stamp ASC" : "stamp DESC"),
    positionOf: (row) => String(row["position_stamp"])
  }
}

export const layer = Layer.effect(
  SqlDialect,
  Effect.map(SqlClient, (sql) => SqlDialect.of({ classify, boolean: (value) => value, audit: stampOrdering(sql), copyIn }))
)
