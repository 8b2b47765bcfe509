/**
 * The esbuild plugins and settings that `bundle.mjs` builds the CLI with, shared with the startup
 * snapshot prototype (`bench/snapshot/build.mjs`).
 */
import { readFileSync } from "node:fs"
import { createRequire } from "node:module"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"

export const cli = join(dirname(fileURLToPath(import.meta.url)), "..")

/** A native addon, optional peers loaded only when installed, and the SQL parser, loaded on first use. */
export const external = ["better-sqlite3", "pg-native", "bufferutil", "utf-8-validate", "node-sql-parser"]

/**
 * esbuild's options for the server as one classic script (CommonJS, `import.meta.url` as the
 * launcher's `__costlineUrl`), shared by `dist/bundle/serve.cjs` and the startup-snapshot
 * prototype (`bench/snapshot/`): each adds its entry, output and plugins.
 */
export const serveScriptOptions = {
  bundle: true,
  platform: "node",
  format: "cjs",
  target: "node22",
  external,
  define: { "import.meta.url": "__costlineUrl" },
  minifyWhitespace: true,
  logLevel: "warning"
}

/**
 * `serve.cjs.map` beside the script when `COSTLINE_BUNDLE_SOURCEMAP=1`, for naming a served CPU
 * profile's frames (`bench/cpu-profile-report.ts`); the script itself is the same either way.
 * @param {NodeJS.ProcessEnv} env
 * @returns {"external" | false}
 */
export const serveScriptSourcemap = (env) => (env.COSTLINE_BUNDLE_SOURCEMAP === "1" ? "external" : false)

/** The packages whose index imports `byModulePath` rewrites in the server's script. */
export const BY_MODULE_PATH = ["effect", "@effect/platform", "@effect/platform-node", "@effect/cli", "@effect/sql-pg"]

/** The file name of the analysis worker's entry point, beside `costline.mjs` and `serve.cjs`. */
export const SQL_WORKER = "sql-worker.mjs"

/**
 * @costline/analysis starts its worker threads from `SqlWorker.js` beside its own modules in
 * `dist/`; in the bundle the worker is a file of its own (`dist/bundle/sql-worker.mjs`), found
 * from the module that asks for it: the script or entry (`dist/bundle/`) or one of its chunks
 * (`dist/bundle/chunks/`).
 */
export const sqlWorkerBesideBundle = {
  name: "sql-worker-beside-bundle",
  setup(build) {
    build.onLoad({ filter: /[\\/]packages[\\/]analysis[\\/]dist[\\/]SqlWorkerEntry\.js$/ }, () => ({
      loader: "js",
      contents: `export const sqlWorkerEntry = () => new URL(/\\/chunks\\/[^/]*$/.test(import.meta.url) ? "../${SQL_WORKER}" : "./${SQL_WORKER}", import.meta.url)`
    }))
  }
}

/**
 * `import … from "node:http"` in an ES module makes Node build the module's ES facade, which reads
 * every export, and three of node:http's are getters that load Node's own fetch/WebSocket
 * implementation (undici): ~40–150 ms of a cold start for names the server never uses. Through
 * `require` the bundle reads only the names it uses.
 */
export const httpThroughRequire = {
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
export const undiciOnFirstUse = {
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
export const byModulePath = (packages) => {
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
