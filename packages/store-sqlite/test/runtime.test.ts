/**
 * The Node.js the tests run on is one the project supports, and the SQLite driver that the store
 * loads survives there: better-sqlite3 12 aborted the process (SIGABRT) on Node 24 when the
 * garbage collector finalised prepared statements.
 */
import { expect, it } from "@effect/vitest"
import { execFile } from "node:child_process"
import { readFileSync } from "node:fs"
import { createRequire } from "node:module"

const rootManifest = JSON.parse(readFileSync(new URL("../../../package.json", import.meta.url), "utf8")) as {
  readonly engines: { readonly node: string }
}

it("runs on a Node.js version that package.json's engines accept", () => {
  const minimum = /^>=(\d+)$/.exec(rootManifest.engines.node)
  expect(minimum).not.toBeNull()
  expect(Number(process.versions.node.split(".")[0])).toBeGreaterThanOrEqual(Number(minimum![1]))
})

/** Prepares many statements and lets the collector finalise them, several times over. */
const CHURN = `
const Database = require(process.argv[1])
const db = new Database(":memory:")
db.exec("CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)")
for (let round = 0; round < 10; round++) {
  for (let i = 0; i < 1000; i++) db.prepare("INSERT INTO t (v) VALUES (?)").run(String(i))
  for (let i = 0; i < 1000; i++) db.prepare("SELECT v FROM t WHERE id = ?").get(i)
  globalThis.gc()
}
db.close()
globalThis.gc()
process.stdout.write("done")
`

it("the store's SQLite driver survives the collector finalising its statements", async () => {
  // The driver the store's client loads, wherever npm put it.
  const driver = createRequire(new URL("../src/SqliteClient.ts", import.meta.url)).resolve("better-sqlite3")
  const outcome = await new Promise<{ code: number | null; signal: string | null; stdout: string }>((resolve) => {
    execFile(process.execPath, ["--expose-gc", "-e", CHURN, driver], (error, stdout) =>
      resolve({ code: error === null ? 0 : (error.code as number | null) ?? null, signal: error?.signal ?? null, stdout }))
  })
  expect(outcome).toEqual({ code: 0, signal: null, stdout: "done" })
}, 60_000) // a child process doing 20,000 statements: generous for a loaded 2-core machine
