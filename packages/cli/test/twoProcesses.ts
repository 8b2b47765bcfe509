/**
 * Scaffolding of the tests where a `costline` command runs as a real process on a SQLite file
 * while the test (a second process) writes and reads the same file through the store, as
 * `costline serve` would: opening the store, starting the command, polling, and writing until it
 * is done. `useStores()` registers the `afterEach` that disposes the stores a test opened.
 */
import { Core } from "@costline/core"
import type { Ids } from "@costline/core"
import { SqliteStore } from "@costline/store-sqlite"
import { SqlClient } from "@effect/sql/SqlClient"
import { Effect, Layer, ManagedRuntime } from "effect"
import { type ChildProcess, spawn } from "node:child_process"
import { join } from "node:path"
import { afterEach } from "vitest"
import { BIN, costline, scratchDir } from "./support.js"

export const ORG = "demo" as Ids.OrganizationId
export const DATABASE = "sqlite:data/costline.db"

/** The other process: the store on the same file, as `costline serve` would open it. */
const openStore = (dir: string) =>
  ManagedRuntime.make(Core.layer.pipe(Layer.provideMerge(SqliteStore.layer({ filename: join(dir, "data/costline.db") }))))

export type Store = ReturnType<typeof openStore>

export const count = (store: Store, table: string) =>
  store.runPromise(Effect.flatMap(SqlClient, (sql) => sql<{ n: number }>`SELECT count(*) AS n FROM ${sql(table)}`)).then(
    ([row]) => Number(row!.n)
  )

export interface Exited {
  readonly code: number | null
  readonly signal: NodeJS.Signals | null
  readonly stderr: string
  readonly stdout: string
}

const exited = (child: ChildProcess) =>
  new Promise<Exited>((resolve) => {
    let stdout = ""
    let stderr = ""
    child.stdout!.on("data", (chunk: Buffer) => (stdout += chunk.toString()))
    child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()))
    child.once("exit", (code, signal) => resolve({ code, signal, stderr, stdout }))
  })

/** Starts `costline <args> --database DATABASE` in `dir`; `finished()` turns true once it has exited. */
export const start = (dir: string, ...args: Array<string>) => {
  const child = spawn(process.execPath, [BIN, ...args, "--database", DATABASE], { cwd: dir })
  const result = exited(child)
  let done = false
  void result.then(() => (done = true))
  return { child, result, finished: () => done }
}

/** Polls `condition` until it holds; fails after `ms`. */
export const eventually = async (condition: () => Promise<boolean>, ms: number, what: string) => {
  const deadline = Date.now() + ms
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

/**
 * Writes through the store until `done`, one at a time, calling `after` after each; every outcome
 * is kept ("ok" or the error).
 */
export const writeUntil = async (
  done: () => boolean,
  write: (index: number) => Promise<unknown>,
  after: () => Promise<void> = async () => {}
) => {
  const outcomes: Array<"ok" | string> = []
  while (!done()) {
    outcomes.push(await write(outcomes.length).then(() => "ok", (error: unknown) => String(error)))
    await after()
    // A write that never waited resolves in microtasks: let the child's exit be noticed.
    await new Promise((resolve) => setImmediate(resolve))
  }
  return outcomes
}

/** In a test file: `seeded()` makes a seeded scratch directory and opens the store on it, disposed after the test. */
export const useStores = () => {
  const stores: Array<Store> = []
  afterEach(async () => {
    await Promise.all(stores.splice(0).map((store) => store.dispose()))
  })
  const open = (dir: string) => {
    const store = openStore(dir)
    stores.push(store)
    return store
  }
  const seeded = async () => {
    const dir = scratchDir()
    const seed = await costline(dir, "seed", "--database", DATABASE)
    if (seed.code !== 0) throw new Error(`costline seed failed: ${seed.stderr}`)
    return { dir, store: open(dir) }
  }
  return { open, seeded }
}
