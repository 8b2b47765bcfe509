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
import { createRequire } from "node:module"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"

const cli = join(dirname(fileURLToPath(import.meta.url)), "..")

/**
 * `import … from "node:http"` in an ES module makes Node build the module's ES facade, which reads
 * every export, and three of node:http's are getters that load Node's own fetch/WebSocket
 * implementation (undici): ~40–150 ms of a cold start for names the server never uses. Through
 * `require` the bundle reads only the names it uses.
 */
const httpThroughRequire = {
  name: "node-http-through-require",
  setup(build) {
    build.onResolve({ filter: /^(node:)?http$/ }, (args) =>
      args.namespace === "node-http-require" ? { path: "node:http", external: true } : { path: "node:http", namespace: "node-http-require" })
    build.onLoad({ filter: /.*/, namespace: "node-http-require" }, () => ({ contents: "module.exports = require(\"node:http\")", loader: "js" }))
  }
}

/**
 * @effect/platform-node's HTTP server module imports its undici HTTP client (for a test layer),
 * which re-exports all of undici (~1 MB, evaluated at start). The CLI's only HTTP client is
 * FetchHttpClient; the undici one is kept, but undici is evaluated when an Agent or the global
 * dispatcher is first asked for (the only two names platform-node takes from it).
 */
const undiciOnFirstUse = {
  name: "undici-on-first-use",
  setup(build) {
    build.onResolve({ filter: /[\\/]@effect[\\/]platform-node[\\/]dist[\\/]esm[\\/]Undici\.js$/ }, (args) => ({ path: args.path, namespace: "undici-on-first-use" }))
    build.onResolve({ filter: /^\.\.?\/Undici\.js$/, namespace: "file" }, (args) =>
      /[\\/]@effect[\\/]platform-node[\\/]/.test(args.importer) ? { path: join(args.resolveDir, args.path), namespace: "undici-on-first-use" } : undefined)
    build.onLoad({ filter: /.*/, namespace: "undici-on-first-use" }, () => ({
      resolveDir: cli,
      loader: "js",
      contents: [
        "const undici = () => require(\"undici\")",
        "export class Agent { constructor(...args) { return new (undici().Agent)(...args) } }",
        "export const getGlobalDispatcher = () => undici().getGlobalDispatcher()"
      ].join("\n")
    }))
  }
}

/**
 * The workspace's `import { Effect, Schema } from "effect"` (and from `@effect/platform`, …) taken
 * from each module by its own path (`import * as Effect from "effect/Effect"`), for the script
 * below. Where esbuild must evaluate a module on first use (what `import()` reaches, in a bundle
 * that is not split) it wraps the module and everything it imports in an initializer, and a
 * wrapped package index evaluates every module it re-exports: `effect`'s 175 (with fast-check,
 * for `Arbitrary`), `@effect/platform-node`'s cluster and worker modules (with msgpackr and its
 * optional native addon). By path, only what is used is evaluated, as in the split bundle.
 * A name an index does not re-export from one module leaves its import as it was.
 */
const byModulePath = (packages) => {
  const require = createRequire(join(cli, "package.json"))
  const indexes = new Map(packages.map((name) => {
    const index = readFileSync(require.resolve(name).replace(/[\\/]dist[\\/]cjs[\\/]/, "/dist/esm/"), "utf8")
    const sources = new Map()
    for (const [, exported, file] of index.matchAll(/^export \* as (\w+) from "\.\/([\w/]+)\.js";$/gm)) sources.set(exported, { namespace: true, file })
    for (const [, names, file] of index.matchAll(/^export \{([^}]*)\} from "\.\/([\w/]+)\.js";$/gm)) {
      for (const name of names.split(",").map((name) => name.trim()).filter(Boolean)) sources.set(name, { namespace: false, file })
    }
    return [name, sources]
  }))
  const statement = new RegExp(`^import \\{([^}]*)\\} from "(${packages.map((name) => name.replace("/", "\\/")).join("|")})";$`, "gm")
  return {
    name: "effect-imports-by-path",
    setup(build) {
      build.onLoad({ filter: /[\\/]packages[\\/][^\\/]+[\\/]dist[\\/].*\.js$/ }, (args) => {
        const text = readFileSync(args.path, "utf8").replace(statement, (whole, names, from) => {
          const imports = names.split(",").map((name) => name.trim()).filter(Boolean).map((name) => {
            const [imported, local = imported] = name.split(/\s+as\s+/)
            const source = indexes.get(from).get(imported)
            if (source === undefined) return undefined
            return source.namespace ? `import * as ${local} from "${from}/${source.file}";` : `import { ${imported} as ${local} } from "${from}/${source.file}";`
          })
          return imports.includes(undefined) ? whole : imports.join(" ")
        })
        return { contents: text, loader: "js" }
      })
    }
  }
}

const outdir = join(cli, "dist", "bundle")
const external = ["better-sqlite3", "pg-native", "bufferutil", "utf-8-validate", "node-sql-parser"]
// Chunk names carry a content hash: old ones would pile up.
rmSync(outdir, { recursive: true, force: true })
rmSync(join(cli, "dist", "costline.mjs"), { force: true })

await build({
  entryPoints: { costline: join(cli, "dist", "bin.js") },
  outdir,
  outExtension: { ".js": ".mjs" },
  chunkNames: "chunks/[name]-[hash]",
  splitting: true,
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node22",
  // A native addon, optional peers loaded only when installed, and the SQL parser, loaded on
  // first use (@costline/analysis requires it lazily).
  external,
  // CommonJS dependencies inside an ES module bundle still call `require` (in every chunk).
  banner: { js: "import { createRequire as __costlineRequire } from 'node:module'; const require = __costlineRequire(import.meta.url);" },
  // Without comments the bundle is ASCII (a few of its dependencies' comments were not), which
  // Node reads and V8 hashes and scans as a one-byte string of half the size.
  minifyWhitespace: true,
  plugins: [httpThroughRequire, undiciOnFirstUse],
  logLevel: "warning"
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
  entryPoints: [join(cli, "dist", "bin.js")],
  outfile: script,
  bundle: true,
  platform: "node",
  format: "cjs",
  target: "node22",
  external,
  define: { "import.meta.url": "__costlineUrl" },
  minifyWhitespace: true,
  plugins: [httpThroughRequire, undiciOnFirstUse, byModulePath(["effect", "@effect/platform", "@effect/platform-node", "@effect/cli", "@effect/sql-pg"])],
  logLevel: "warning"
})
// Not a file to run by itself: no hashbang (a syntax error inside the wrapper).
const body = readFileSync(script, "utf8").replace(/^#!.*\n/, "")
writeFileSync(script, `//costline-script ${createHash("sha256").update(body).digest("hex")}\n${body}`)
