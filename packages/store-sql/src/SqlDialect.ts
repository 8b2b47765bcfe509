/**
 * What differs between the stores, injected by each of them: how the driver reports failures,
 * how a boolean is bound, and how the audit log is ordered. Everything else is shared SQL.
 */
import type { Audit, Errors } from "@costline/core"
import type { SqlError } from "@effect/sql/SqlError"
import type { Fragment } from "@effect/sql/Statement"
import { Context, type Effect, type Either } from "effect"

/** How a failed statement should be treated by a repository. */
export type SqlFailure =
  /** A unique constraint or primary key was violated: the caller may map it to AlreadyExists. */
  | "unique_violation"
  /** The store cannot be reached, is busy, or timed out: transient, report StoreUnavailable. */
  | "unavailable"
  /** Anything else: a bug in our SQL or a broken schema, a defect. */
  | "bug"

/** A row value the driver can bind. */
export type SqlValue = string | number | boolean | null

/**
 * The audit log's ordering key. Positions are opaque strings outside the store; every page query
 * is `WHERE visible AND after(position) ORDER BY orderBy(order) LIMIT n`.
 */
export interface AuditOrdering {
  /** Extra columns the page query selects so that `positionOf` can read them. */
  readonly positionColumns: Fragment
  /** Restricts a read to rows no still-running transaction can precede. */
  readonly visible: Fragment
  /**
   * Rows strictly after `position` in `order` (in the tenant's log); a position this store never
   * issued is refused.
   */
  readonly after: (
    position: string,
    order: Audit.SortOrder,
    organizationId: string
  ) => Either.Either<Fragment, Errors.InvalidPageToken>
  readonly orderBy: (order: Audit.SortOrder) => Fragment
  readonly positionOf: (row: Record<string, unknown>) => string
}

export class SqlDialect extends Context.Tag("@costline/store-sql/SqlDialect")<
  SqlDialect,
  {
    readonly classify: (error: SqlError) => SqlFailure
    readonly boolean: (value: boolean) => SqlValue
    readonly audit: AuditOrdering
    /**
     * Postgres: runs `COPY <table> (<columns>) FROM STDIN` with `data` in COPY text format (see
     * PgCopy) on the connection of the caller's transaction (it must be inside one). Absent where
     * the store has no bulk path (SQLite: multi-row INSERTs are as fast in process).
     */
    readonly copyIn?: ((statement: string, data: string) => Effect.Effect<void, SqlError>) | undefined
  }
>() {}
