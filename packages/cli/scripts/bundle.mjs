/**
 * Bundles the CLI (and with it the server) into one file, `dist/costline.mjs`, which the
 * `costline` command runs. Loading the ~1,900 modules of the workspace's `dist/` and of `effect`
 * one by one took most of `costline serve`'s cold start (1.4 s → 0.75 s) and ~35 MB of memory;
 * the bundle keeps only the code the CLI reaches. The libraries themselves are still published
 * unbundled, for hosts that import them. Native and optional modules stay outside.
 */
import { build } from "esbuild"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"

const cli = join(dirname(fileURLToPath(import.meta.url)), "..")

await build({
  entryPoints: [join(cli, "dist", "bin.js")],
  outfile: join(cli, "dist", "costline.mjs"),
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node22",
  // A native addon, optional peers loaded only when installed, and the SQL parser, loaded on
  // first use (@costline/analysis requires it lazily).
  external: ["better-sqlite3", "pg-native", "bufferutil", "utf-8-validate", "node-sql-parser"],
  // CommonJS dependencies inside an ES module bundle still call `require`.
  banner: { js: "import { createRequire as __costlineRequire } from 'node:module'; const require = __costlineRequire(import.meta.url);" },
  logLevel: "warning"
})
