#!/usr/bin/env node
// The `costline` command. A file that exists before the build, so that npm links the command
// when it installs the workspace (it skips links to missing files, and dist/ is built later).
// The SQLite driver needs Node 22 or newer; on older Node it crashes inside the addon, so say so first.
if (Number(process.versions.node.split(".")[0]) < 22) {
  console.error(`costline: Node.js 22 or newer is required (this is ${process.version}); in this repository, npm start and npm run costline use the Node it installs`)
  process.exit(1)
}
// V8's compiled code for the bundle (~5 MB), kept on disk between starts: about a fifth of a cold
// start's CPU. In $NODE_COMPILE_CACHE, else <tmpdir>/node-compile-cache; NODE_DISABLE_COMPILE_CACHE=1 turns it off.
const { enableCompileCache } = await import("node:module")
enableCompileCache?.()
await import("../dist/costline.mjs")
