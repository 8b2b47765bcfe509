/**
 * Prototype of a V8 startup snapshot of `costline serve` (not shipped: docs/decisions.md, "Not
 * done: a V8 startup snapshot"; measured in performance-history.md, "Fifth round"). Bundles
 * `entry.mjs` into `packages/cli/dist/bundle/serve-snapshot.cjs` and builds a snapshot blob of it
 * with this Node (a blob runs only on the binary that built it). Run after `npm run build`:
 *
 *   node_modules/.bin/node bench/snapshot/build.mjs /tmp/serve.blob
 *   COSTLINE_SNAPSHOT_BLOB=/tmp/serve.blob npx vite-node bench/cold-start.ts -- --rounds 5 \
 *     --costline packages/cli/bin/costline.js --costline bench/snapshot/launch.mjs
 *
 * What a snapshot may not hold, and what this bundle does about it:
 * - `node:http`'s parser binding (and https, tls, http2): V8 aborts the build ("global handle not
 *   serialized … HTTPParser", CheckGlobalAndEternalHandles). platform-node imports `ws`, whose
 *   buffer-util.js destructures `require("http")` when evaluated, and prom-client's pushgateway.js
 *   requires http and https: those modules (and `ws`, read from node_modules at run time) are
 *   replaced by proxies that require them on first property read.
 * - better-sqlite3 (a native addon): its constructor requires it on first use.
 * - the builder's `require` serves built-in modules only: the bundle's `require` sends other names
 *   to `createRequire(__filename)` at run time.
 */
import { build } from "esbuild"
import { execFileSync } from "node:child_process"
import { createRequire } from "node:module"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import { BY_MODULE_PATH, byModulePath, cli, serveScriptOptions, undiciOnFirstUse } from "../../packages/cli/scripts/bundle-plugins.mjs"

const blob = process.argv[2]
if (blob === undefined) throw new Error("usage: bench/snapshot/build.mjs <blob path>")

const LAZY = /^(node:)?(http|https|tls|http2)$|^ws$/
const specifierOf = (name) => name === "ws" ? "ws" : `node:${name}`
const onFirstUse = {
  name: "modules-on-first-use",
  setup(build) {
    build.onResolve({ filter: LAZY }, (args) =>
      args.namespace === "on-first-use" ? { path: args.path, external: true } : { path: args.path.replace(/^node:/, ""), namespace: "on-first-use" })
    build.onLoad({ filter: /.*/, namespace: "on-first-use" }, (args) => ({
      loader: "js",
      // The names are listed at build time: esbuild's __toESM copies them when a module is imported.
      contents: `let loaded
const load = () => (loaded ??= require(${JSON.stringify(specifierOf(args.path))}))
const names = ${JSON.stringify(Object.keys(createRequire(join(cli, "package.json"))(specifierOf(args.path))))}
module.exports = new Proxy({}, {
  get: (_, name) => load()[name],
  has: (_, name) => name in load(),
  ownKeys: () => names,
  getOwnPropertyDescriptor: (_, name) => names.includes(name) ? { configurable: true, enumerable: true, get: () => load()[name] } : undefined
})`
    }))
  }
}
const betterSqliteOnFirstUse = {
  name: "better-sqlite3-on-first-use",
  setup(build) {
    build.onResolve({ filter: /^better-sqlite3$/ }, (args) =>
      args.namespace === "better-sqlite3-lazy" ? { path: "better-sqlite3", external: true } : { path: "better-sqlite3", namespace: "better-sqlite3-lazy" })
    build.onLoad({ filter: /.*/, namespace: "better-sqlite3-lazy" }, () => ({
      loader: "js",
      contents: "let driver\nmodule.exports = function Database(...args) { return new (driver ??= require(\"better-sqlite3\"))(...args) }"
    }))
  }
}
const banner = `var require = ((builtin) => {
  const { isBuiltin, createRequire } = builtin("node:module")
  let outside
  const resolver = () => (outside ??= createRequire(__filename))
  const req = (id) => isBuiltin(id) ? builtin(id) : resolver()(id)
  req.resolve = (id) => resolver().resolve(id)
  return req
})(require);
var __costlineUrl = require("node:url").pathToFileURL(__filename).href;`

const script = join(cli, "dist", "bundle", "serve-snapshot.cjs")
await build({
  ...serveScriptOptions,
  entryPoints: [join(dirname(fileURLToPath(import.meta.url)), "entry.mjs")],
  outfile: script,
  banner: { js: banner },
  plugins: [onFirstUse, undiciOnFirstUse, betterSqliteOnFirstUse, byModulePath(BY_MODULE_PATH)]
})
const started = performance.now()
execFileSync(process.execPath, ["--snapshot-blob", blob, "--build-snapshot", script], { stdio: ["ignore", "inherit", "ignore"] })
console.log(`${blob} built in ${(performance.now() - started).toFixed(0)} ms`)
