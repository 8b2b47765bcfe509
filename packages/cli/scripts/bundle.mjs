/**
 * Bundles the CLI (and with it the server) into `dist/bundle/costline.mjs` and the chunks it
 * loads, which the `costline` command runs. Loading the ~1,900 modules of the workspace's `dist/`
 * and of `effect` one by one took most of `costline serve`'s cold start (1.4 s → 0.75 s) and
 * ~35 MB of memory; the bundle keeps only the code the CLI reaches. It is split where `bin.ts`
 * and the store choice (`Database.ts`) use `import()`: a server's start loads `serve` and one store,
 * not the other commands or the other store's driver. The libraries themselves are still
 * published unbundled, for hosts that import them. Native and optional modules stay outside.
 */
import { build } from "esbuild"
import { createHash } from "node:crypto"
import { readFileSync, rmSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import {
  BY_MODULE_PATH,
  byModulePath,
  cli,
  external,
  httpThroughRequire,
  serveScriptOptions,
  serveScriptSourcemap,
  SQL_WORKER,
  sqlWorkerBesideBundle,
  undiciOnFirstUse
} from "./bundle-plugins.mjs"
import { youngClosures } from "./young-closures.mjs"

const outdir = join(cli, "dist", "bundle")
const banner = { js: "import { createRequire as __costlineRequire } from 'node:module'; const require = __costlineRequire(import.meta.url);" }
/** What every ES module this script bundles shares: the CLI with its chunks, and the analysis worker. */
const esModuleOptions = {
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node22",
  // A native addon, optional peers loaded only when installed, and the SQL parser, loaded on
  // first use (@costline/analysis requires it lazily).
  external,
  // CommonJS dependencies inside an ES module bundle still call `require` (in every chunk).
  banner,
  // Without comments the bundle is ASCII (a few of its dependencies' comments were not), which
  // Node reads and V8 hashes and scans as a one-byte string of half the size.
  minifyWhitespace: true,
  logLevel: "warning"
}
// Chunk names carry a content hash: old ones would pile up.
rmSync(outdir, { recursive: true, force: true })
rmSync(join(cli, "dist", "costline.mjs"), { force: true })

await build({
  entryPoints: { costline: join(cli, "dist", "bin.js") },
  outdir,
  outExtension: { ".js": ".mjs" },
  chunkNames: "chunks/[name]-[hash]",
  splitting: true,
  ...esModuleOptions,
  plugins: [httpThroughRequire, undiciOnFirstUse, sqlWorkerBesideBundle, youngClosures]
})

/**
 * The query-analysis worker thread's entry point (@costline/analysis's `SqlWorker.js`: the SQL
 * parser, the rules and the rewrites), a module of its own that the bundle's analysis starts
 * threads from (`sqlWorkerBesideBundle`).
 */
await build({
  entryPoints: [join(cli, "..", "analysis", "dist", "SqlWorker.js")],
  outfile: join(outdir, SQL_WORKER),
  ...esModuleOptions
})

/**
 * `costline serve` runs the same program as one classic script (`dist/bundle/serve.cjs`), which
 * `bin/warm-start.js` compiles through `vm.Script` with a V8 code cache it produces after the
 * server's first answer, so that a start also skips compiling every function the previous one ran
 * (Node's compile cache, taken before a module runs, holds only its top level; docs/decisions.md,
 * "Cold start, fourth round"). A classic script is CommonJS: one file, no chunks, and what
 * `import()` reaches is evaluated on first use as in the split bundle. The launcher wraps it in a
 * function of `exports, require, module, __filename, __dirname, __costlineUrl` (`import.meta.url`).
 * Its first line names a hash of its contents: a cache made for other contents is not offered to V8.
 */
const script = join(outdir, "serve.cjs")
await build({
  ...serveScriptOptions,
  entryPoints: [join(cli, "dist", "bin.js")],
  outfile: script,
  sourcemap: serveScriptSourcemap(process.env),
  // Before byModulePath, which also loads the workspace's dist/ modules.
  plugins: [httpThroughRequire, undiciOnFirstUse, sqlWorkerBesideBundle, byModulePath(BY_MODULE_PATH), youngClosures]
})
// Not a file to run by itself: no hashbang (a syntax error inside the wrapper).
const body = readFileSync(script, "utf8").replace(/^#!.*\n/, "")
writeFileSync(script, `//costline-script ${createHash("sha256").update(body).digest("hex")}\n${body}`)
