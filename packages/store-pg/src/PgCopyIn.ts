/**
 * `COPY … FROM STDIN` for the shared repositories' bulk writes (SqlDialect's `copyIn`), through
 * pg-copy-streams on the connection of the caller's transaction. @effect/sql-pg has no COPY of
 * its own; its transaction's connection (`TransactionConnection`) carries the node-postgres client
 * it runs on as `pg`, which is what the COPY must use to be part of that transaction.
 */
import { TransactionConnection } from "@effect/sql/SqlClient"
import { SqlError } from "@effect/sql/SqlError"
import { Effect, Option } from "effect"
import type { PoolClient } from "pg"
import { from as copyFrom } from "pg-copy-streams"

const clientOf = (connection: unknown): PoolClient | undefined => {
  const client = (connection as { readonly pg?: unknown }).pg
  return typeof client === "object" && client !== null && typeof (client as PoolClient).query === "function"
    ? client as PoolClient
    : undefined
}

/** Runs `statement` (a `COPY … FROM STDIN`) with `data` in its format; fails with the server's error. */
export const copyIn = (statement: string, data: string): Effect.Effect<void, SqlError> =>
  Effect.flatMap(Effect.serviceOption(TransactionConnection), (transaction) => {
    const client = Option.isSome(transaction) ? clientOf(transaction.value[0]) : undefined
    if (client === undefined) return Effect.dieMessage("COPY FROM STDIN must run inside a transaction of the Postgres store")
    return Effect.async<void, SqlError>((resume) => {
      let done = false
      const settle = (outcome: Effect.Effect<void, SqlError>) => {
        if (done) return
        done = true
        resume(outcome)
      }
      const stream = client.query(copyFrom(statement))
      stream.on("error", (cause) => settle(Effect.fail(new SqlError({ cause, message: "Failed to copy rows" }))))
      stream.on("finish", () => settle(Effect.void))
      stream.end(data, "utf8")
      // Interrupted: a CopyFail ends the COPY on the server, which fails it (and so the transaction).
      return Effect.sync(() => {
        if (!done) stream.destroy(new Error("the copy was interrupted"))
      })
    })
  })
