// Runs `costline serve` from its classic script (`dist/bundle/serve.cjs`) with a V8 code cache
// taken after the server's first answer (docs/decisions.md, "Cold start, fourth round").
//
// Node's compile cache (`module.enableCompileCache`) stores the code V8 produces when a module is
// compiled, before it runs: its top level only. Every function a start runs (the Schema
// constructors, the layers' builders, the first request) was compiled from source again at every
// start. `vm.Script#createCachedData()` called once the server has answered includes all of them.
//
// The cache lives beside Node's (in the directory `enableCompileCache()` chose, so
// NODE_COMPILE_CACHE and NODE_DISABLE_COMPILE_CACHE apply), one file per script path, store
// kind, Node version, architecture and flag set. A file is offered to V8 only when its checksum
// holds and it was made from the same script contents; V8 checks its version and flags again and
// may reject it.
// The cache is code the server runs, so only the server's own user may have written it: the
// directory is created private (0700), and a directory or file owned by another user, or writable
// by group or others, is never read (a shared /tmp lets any local user create
// `<tmpdir>/node-compile-cache` first). Files are opened without following links and written
// with O_EXCL, so a planted link neither feeds the server nor redirects its write.
// Whatever goes wrong here (no directory, a corrupt, foreign or stale file, a failed write) the
// server starts as it would without a cache, and a rejected or missing cache is written again
// after the next first answer (to a temporary file, renamed into place). NODE_DEBUG=costline
// reports what happened on stderr.
import { createHash } from "node:crypto"
import { subscribe, unsubscribe } from "node:diagnostics_channel"
import {
  chmodSync,
  closeSync,
  constants as fs,
  fstatSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync
} from "node:fs"
import { createRequire } from "node:module"
import { dirname, join } from "node:path"
import { pathToFileURL } from "node:url"
import { debuglog } from "node:util"
import { constants, Script } from "node:vm"
// zlib.crc32 arrived in Node 22.2: without it, no cache (a named import would fail on 22.0–22.1).
import * as zlib from "node:zlib"

const MAGIC = "costline-v8-cache-1\n"
const HASH_LINE = /^\/\/costline-script ([0-9a-f]{64})\n/
/** The first finished response of any HTTP server in the process (Node's own channel). */
const FIRST_ANSWER = "http.server.response.finish"
const debug = debuglog("costline")
/**
 * Each install path, Node version and flag set has its own file, so a machine that runs many
 * (npx keeps one install per version) would collect them: a write removes those untouched for
 * this long. A file in use is never rewritten, so it may go too, and is written again next start.
 */
const KEPT_MS = 30 * 24 * 60 * 60 * 1000

/**
 * The cache file of `file` under `directory`, for this Node, architecture and flag set, and for
 * one kind of start (`variant`): a Postgres server runs code a SQLite server never compiled.
 */
export const cacheFileOf = (directory, file, variant) => {
  const key = createHash("sha256")
    .update([file, variant, process.version, process.arch, process.platform, ...process.execArgv, process.env.NODE_OPTIONS ?? ""].join("\0"))
    .digest("hex")
    .slice(0, 32)
  return join(directory, "costline-serve", `${key}.cache`)
}

/** Whether the user `uid` (this process's) owns it. Windows has no uids (its temporary directory is per user): always. */
const isOwnedBy = (stats, uid) => uid === undefined || stats.uid === uid

/**
 * Whether a file or directory with these stats can only have been written by the user `uid`
 * (this process's): owned by it and not writable by group or others.
 */
export const isPrivate = (stats, uid) => isOwnedBy(stats, uid) && (uid === undefined || (stats.mode & 0o022) === 0)

/**
 * Makes `directory` (the server's cache directory) if missing, private to this user, and says
 * whether it may be used: a real directory, owned by this user. One that was group- or
 * world-readable (made by an earlier version) is closed to others first.
 */
const ownDirectory = (directory) => {
  try {
    mkdirSync(directory, { recursive: true, mode: 0o700 })
    const stats = lstatSync(directory)
    // Owned is enough: its mode is closed to others here.
    if (!stats.isDirectory() || !isOwnedBy(stats, process.getuid?.())) return false
    if ((stats.mode & 0o077) !== 0) chmodSync(directory, 0o700)
    return true
  } catch {
    return false
  }
}

/** The bytes of `file` when it is a regular file this user alone could have written. */
const readPrivate = (file) => {
  const fd = openSync(file, fs.O_RDONLY | (fs.O_NOFOLLOW ?? 0))
  try {
    const stats = fstatSync(fd)
    if (!stats.isFile() || !isPrivate(stats, process.getuid?.())) {
      debug("code cache not trusted (owner %d, mode %s): %s", stats.uid, (stats.mode & 0o777).toString(8), file)
      return undefined
    }
    return readFileSync(fd)
  } finally {
    closeSync(fd)
  }
}

/** The V8 data in `bytes` when they are an intact cache made from the script `scriptHash`. */
const cachedDataOf = (bytes, scriptHash) => {
  const header = Buffer.byteLength(MAGIC) + 64 + 4
  if (bytes.length <= header || bytes.toString("latin1", 0, Buffer.byteLength(MAGIC)) !== MAGIC) return undefined
  if (bytes.toString("latin1", Buffer.byteLength(MAGIC), Buffer.byteLength(MAGIC) + 64) !== scriptHash) return undefined
  const data = bytes.subarray(header)
  return zlib.crc32(data) === bytes.readUInt32LE(header - 4) ? data : undefined
}

const prune = (directory) => {
  for (const name of readdirSync(directory)) {
    const file = join(directory, name)
    try {
      if (Date.now() - statSync(file).mtimeMs > KEPT_MS) rmSync(file, { force: true })
    } catch {
      // Removed by another start meanwhile.
    }
  }
}

const write = (cacheFile, scriptHash, data) => {
  try {
    const checksum = Buffer.alloc(4)
    checksum.writeUInt32LE(zlib.crc32(data))
    const partial = `${cacheFile}.${process.pid}.tmp`
    try {
      // "wx": never through a file or link that is already there.
      writeFileSync(partial, Buffer.concat([Buffer.from(MAGIC + scriptHash, "latin1"), checksum, data]), { flag: "wx", mode: 0o600 })
      renameSync(partial, cacheFile)
      debug("code cache written: %s (%d bytes)", cacheFile, data.length)
      prune(dirname(cacheFile))
    } catch (error) {
      rmSync(partial, { force: true })
      throw error
    }
  } catch (error) {
    // A read-only or full disk: the next start compiles as this one did.
    debug("code cache not written: %s", error)
  }
}

/**
 * Runs the script `file` as CommonJS (its own `require` resolves from its directory), with the
 * cache of `variant` under `directory` when there is one (undefined: no cache).
 */
export const runScript = (file, directory, variant) => {
  const text = readFileSync(file, "utf8")
  const scriptHash = HASH_LINE.exec(text)?.[1]
  let cacheFile = directory === undefined || scriptHash === undefined || typeof zlib.crc32 !== "function"
    ? undefined
    : cacheFileOf(directory, file, variant)
  const disabled = cacheFile === undefined
  if (!disabled && !ownDirectory(dirname(cacheFile))) {
    debug("code cache directory not usable (another user's, or not a directory): %s", dirname(cacheFile))
    cacheFile = undefined
  }
  let cachedData
  if (cacheFile !== undefined) {
    try {
      const bytes = readPrivate(cacheFile)
      cachedData = bytes === undefined ? undefined : cachedDataOf(bytes, scriptHash)
    } catch {
      // None yet.
    }
  }
  const script = new Script(
    `(function (exports, require, module, __filename, __dirname, __costlineUrl) {${text}\n})`,
    { filename: file, cachedData, importModuleDynamically: constants.USE_MAIN_CONTEXT_DEFAULT_LOADER }
  )
  if (disabled) debug("no code cache (compile cache disabled)")
  else if (cacheFile !== undefined) debug("code cache %s: %s", cachedData === undefined ? "missing or unusable" : script.cachedDataRejected ? "rejected by V8" : "accepted", cacheFile)
  if (cacheFile !== undefined && (cachedData === undefined || script.cachedDataRejected === true)) {
    const onAnswer = () => {
      unsubscribe(FIRST_ANSWER, onAnswer)
      // After the answer has gone out: the cache takes a few tens of ms to serialize.
      setImmediate(() => write(cacheFile, scriptHash, script.createCachedData()))
    }
    subscribe(FIRST_ANSWER, onAnswer)
  }
  const module = { exports: {} }
  script.runInThisContext()(module.exports, createRequire(file), module, file, dirname(file), pathToFileURL(file).href)
}
