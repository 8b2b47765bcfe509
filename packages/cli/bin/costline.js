#!/usr/bin/env node
// The `costline` command. A file that exists before the build, so that npm links the command
// when it installs the workspace (it skips links to missing files, and dist/ is built later).
// The SQLite driver needs Node 22 or newer; on older Node it crashes inside the addon, so say so first.
if (Number(process.versions.node.split(".")[0]) < 22) {
  console.error(`costline: Node.js 22 or newer is required (this is ${process.version}); in this repository, npm start and npm run costline use the Node it installs`)
  process.exit(1)
}
// Two commands size V8's heap for themselves (see docs/decisions.md). `ingest dw` streams a
// million rows, and `serve` allocates fast under concurrent requests: V8 would let the young
// generation grow to 2 × 64 MB under either allocation rate, the largest part of the peak RSS
// (issue 18, ingest: 440 → 306 MB on 200k queries; issue 19, serve under the benchmark's load:
// 409 → 265 MB), for no measured CPU. Heap sizes are fixed when V8 starts, so the command
// re-executes itself in place (same pid, stdio and signals) with 4 MB semi-spaces; a size the user
// set wins, and a Node without process.execve (before 22.15, Windows) runs as it is.
//
// The same re-execution bounds glibc's malloc to two arenas (`MALLOC_ARENA_MAX`, read when a
// process starts): V8's compiler and GC threads otherwise each get an arena of their own, whose
// freed pages stay resident (issue 19, serve under the benchmark's load: peak 187 → 169 MB; the
// Fastify peer 147 → 116 MB). Other C libraries ignore it; a value the user set wins.
const SEMI_SPACE_FLAG = "--max-semi-space-size"
const sizesHeap = (process.argv[2] === "ingest" && process.argv[3] === "dw") || process.argv[2] === "serve"
const setsSemiSpace = [...process.execArgv, ...(process.env.NODE_OPTIONS ?? "").split(/\s+/)].some((flag) => flag.startsWith(SEMI_SPACE_FLAG))
if (sizesHeap && typeof process.execve === "function" && (!setsSemiSpace || process.env.MALLOC_ARENA_MAX === undefined)) {
  process.execve(
    process.execPath,
    [process.execPath, ...process.execArgv, ...(setsSemiSpace ? [] : [`${SEMI_SPACE_FLAG}=4`]), ...process.argv.slice(1)],
    { MALLOC_ARENA_MAX: "2", ...process.env }
  )
}
// The old generation: V8 lets it grow to about four times its live set between full collections
// (a growing factor up to 4); a factor of 2 keeps it near twice (ingest, 1M queries: 341 → 259 MB,
// no more CPU; serve: 265 → 196 MB over the benchmark, a live set of ~30 MB). Read at each
// collection, so set here: Node refuses it on the command line and in NODE_OPTIONS.
if (sizesHeap) {
  const { setFlagsFromString } = await import("node:v8")
  setFlagsFromString("--heap-growing-percent=100")
}
// V8's compiled code for the bundle (~3 MB), kept on disk between starts: about a fifth of a cold
// start's CPU. In $NODE_COMPILE_CACHE, else <tmpdir>/node-compile-cache; NODE_DISABLE_COMPILE_CACHE=1 turns it off.
const { enableCompileCache } = await import("node:module")
const compileCache = enableCompileCache?.()
if (process.argv[2] === "serve") {
  // A server runs the same program as one script, with a cache of the code its previous start ran
  // (taken after its first answer, beside Node's compile cache: see warm-start.js).
  // One cache per kind of store (each runs code the other never does), read from the command
  // line as the command will (src/Database.ts); a guess that is wrong only costs a colder start.
  const at = process.argv.findIndex((arg) => arg === "--database" || arg.startsWith("--database="))
  const database = (at < 0 ? undefined : process.argv[at].includes("=") ? process.argv[at].slice("--database=".length) : process.argv[at + 1]) ??
    (process.env.COSTLINE_DATABASE_URL || "sqlite:")
  const [{ runScript }, { fileURLToPath }] = await Promise.all([import("./warm-start.js"), import("node:url")])
  runScript(fileURLToPath(new URL("../dist/bundle/serve.cjs", import.meta.url)), compileCache?.directory, /^postgres(ql)?:/.test(database) ? "postgres" : "sqlite")
} else {
  await import("../dist/bundle/costline.mjs")
}
