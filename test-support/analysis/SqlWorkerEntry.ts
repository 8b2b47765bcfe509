/**
 * The analysis worker's entry point for tests, which run the TypeScript sources: vitest.workspace.ts
 * puts this module in place of packages/analysis/src/SqlWorkerEntry.ts. The worker's sources
 * (packages/analysis/src/SqlWorker.ts and what it imports, `@costline/*` from their sources as
 * the aliases do) are bundled with esbuild on first use, so a stale dist/ cannot hide a change
 * from the worker either. Its dependencies stay outside the bundle, found from node_modules/.cache.
 */
import { buildSync } from "esbuild"
import { createHash } from "node:crypto"
import { existsSync, mkdirSync, renameSync, writeFileSync } from "node:fs"
import { fileURLToPath, pathToFileURL } from "node:url"

const repository = new URL("../../", import.meta.url)
const cache = new URL("node_modules/.cache/costline-tests/", repository)

let built: URL | undefined

export const sqlWorkerEntry = (): URL => {
  if (built !== undefined) return built
  const { outputFiles } = buildSync({
    entryPoints: [fileURLToPath(new URL("packages/analysis/src/SqlWorker.ts", repository))],
    bundle: true,
    write: false,
    platform: "node",
    format: "esm",
    target: "node22",
    logLevel: "warning",
    // Packages stay outside; the workspace's own are taken from their sources.
    packages: "external",
    alias: Object.fromEntries(["core", "analysis"].map((name) => [
      `@costline/${name}`,
      fileURLToPath(new URL(`packages/${name}/src/index.ts`, repository))
    ]))
  })
  const code = outputFiles[0]!.contents
  const file = new URL(`sql-worker-${createHash("sha256").update(code).digest("hex").slice(0, 16)}.mjs`, cache)
  if (!existsSync(file)) {
    mkdirSync(cache, { recursive: true })
    const partial = `${fileURLToPath(file)}.${process.pid}`
    writeFileSync(partial, code)
    renameSync(partial, file)
  }
  return built = pathToFileURL(fileURLToPath(file))
}
