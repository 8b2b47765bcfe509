/**
 * The two databases a run measures: a fresh SQLite file, and a fresh database on Postgres
 * (`COSTLINE_BENCH_PG_URL`, a role that may CREATE DATABASE, or else an embedded server the run
 * starts and removes, as the store-pg tests do).
 */
import { PgClient } from "@effect/sql-pg"
import * as Reactivity from "@effect/experimental/Reactivity"
import { Effect, Redacted } from "effect"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { startEmbedded } from "../../test-support/postgres/globalSetup.js"
import type { PostgresOptions } from "../../test-support/postgres/server.js"
import { treeCpuSeconds } from "./ProcCpu.js"

export type StoreKind = "sqlite" | "postgres"

export interface StoreTarget {
  readonly kind: StoreKind
  /** What `costline serve --database` and the baseline take. */
  readonly url: string
  /** The SQLite file (SQLite only). */
  readonly filename: string
  readonly dispose: () => Promise<void>
  /** CPU seconds the database server has used so far (embedded Postgres only: its process tree). */
  readonly serverCpuSeconds?: (() => number) | undefined
}

export const sqliteTarget = (): StoreTarget => {
  const dir = mkdtempSync(join(tmpdir(), "costline-bench-"))
  const filename = join(dir, "bench.db")
  return { kind: "sqlite", url: `sqlite:${filename}`, filename, dispose: async () => rmSync(dir, { recursive: true, force: true }) }
}

/** Runs one statement on a Postgres database, on a connection of its own. */
export const onServer = (adminUrl: string, statement: string): Promise<ReadonlyArray<Record<string, unknown>>> =>
  Effect.flatMap(PgClient.make({ url: Redacted.make(adminUrl) }), (sql) => sql.unsafe<Record<string, unknown>>(statement)).pipe(
    Effect.scoped,
    Effect.provide(Reactivity.layer),
    Effect.runPromise
  )

/** `COSTLINE_BENCH_PG_URL`, else an embedded server started here; `stop` stops only that one. */
export const postgresServer = async (options: PostgresOptions = {}): Promise<{
  readonly url: string
  readonly stop: () => Promise<void>
  readonly pid?: (() => number | undefined) | undefined
}> => {
  const external = process.env["COSTLINE_BENCH_PG_URL"]
  return external !== undefined && external !== "" ? { url: external, stop: async () => {} } : await startEmbedded(options)
}

export const postgresTarget = async (options: PostgresOptions = {}): Promise<StoreTarget> => {
  const server = await postgresServer(options)
  const pid = server.pid?.()
  const name = `costline_bench_${process.pid}`
  await onServer(server.url, `CREATE DATABASE ${name}`)
  const url = new URL(server.url)
  url.pathname = `/${name}`
  return {
    kind: "postgres",
    url: url.toString(),
    filename: "",
    serverCpuSeconds: pid === undefined ? undefined : () => treeCpuSeconds(pid),
    dispose: async () => {
      await onServer(server.url, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
      await server.stop()
    }
  }
}
