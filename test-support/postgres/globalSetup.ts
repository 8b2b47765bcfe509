/**
 * A vitest global setup: one Postgres server for a whole test project (store-pg, examples):
 * `COSTLINE_TEST_PG_URL` when set (a role that may CREATE DATABASE), otherwise a throwaway
 * server on a free port in a temporary directory, removed at teardown. Test files reach it
 * through `inject("pgAdminUrl")` and each creates a database of its own (see database.ts).
 */
import type { TestProject } from "vitest/node"
import { type PostgresOptions, startPostgres } from "./server.js"

declare module "vitest" {
  export interface ProvidedContext {
    /** A connection URL with the right to create databases. */
    readonly pgAdminUrl: string
  }
}

/**
 * Also used by bench/, which needs a throwaway server of its own. Fails with one line that says
 * why and how to use an existing server instead: vitest prints nothing of its own for a global
 * setup that throws.
 */
export const startEmbedded = async (
  options: PostgresOptions = {}
): Promise<{ readonly url: string; readonly stop: () => Promise<void>; readonly pid: () => number | undefined }> => {
  try {
    const server = await startPostgres(options)
    return { url: server.url, stop: server.destroy, pid: server.pid }
  } catch (error) {
    const reason = (error instanceof Error ? error.message : String(error)).replace(/\s+/g, " ").trim()
    const message = `The throwaway PostgreSQL server for the tests did not start: ${reason}. ` +
      "To use an existing server instead, set COSTLINE_TEST_PG_URL=postgres://user:password@host:port/postgres " +
      "(a role that may CREATE DATABASE)."
    console.error(message)
    throw new Error(message)
  }
}

export default async function setup(project: TestProject) {
  const external = process.env["COSTLINE_TEST_PG_URL"]
  if (external !== undefined && external !== "") {
    project.provide("pgAdminUrl", external)
    return
  }
  const embedded = await startEmbedded()
  project.provide("pgAdminUrl", embedded.url)
  return () => embedded.stop()
}
