/**
 * The servers under test, each in its own process: costline (`costline serve`, rate limiting
 * off: the load comes from one key), the bare baseline and, for the scenarios it serves, the
 * Fastify peer (what a user would build instead). A server is ready at its first successful
 * answer to a real request, which is also what cold start measures.
 */
import { type ChildProcess, spawn } from "node:child_process"
import { createWriteStream, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import { freePort } from "../../test-support/network.js"
import { watched } from "./Cpu.js"

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..")
const COSTLINE = join(ROOT, "packages/cli/bin/costline.js")
const BASELINE = join(ROOT, "bench/baseline/server.mjs")
const PEER = join(ROOT, "bench/peer/server.mjs")
const FLOOR = join(ROOT, "bench/floor/server.mjs")
const READY_WITHIN_MS = 60_000
const OUTPUT_KEPT = 8_000

/** `floor`: the baseline's work as one Effect fiber per request (`bench/floor/server.mjs`), measured in the peer's place. */
export type ServerKind = "ours" | "baseline" | "peer" | "floor"

export interface RunningServer {
  readonly kind: ServerKind
  readonly origin: string
  /** The server's process id (the same after costline's launcher re-executes itself). */
  readonly pid: number
  /** Spawn to first successful response, in milliseconds. */
  readonly coldStartMs: number
  /** Resident memory now, and its peak since the process started, in MB (Linux /proc). */
  readonly memory: () => { readonly rssMb: number; readonly peakRssMb: number }
  /**
   * Starts watching the peak anew; the function returned gives the peak since, in MB. The
   * process's own peak (`memory().peakRssMb`) is kept all the same.
   */
  readonly watchPeak: () => () => number
  /** The process's CPU time so far (user + system, every thread), in microseconds. */
  readonly cpuMicros: () => number
  /** Whether its main thread is running or waiting for a core right now (`/proc/<pid>/stat`). */
  readonly running: () => boolean
  readonly stop: () => Promise<void>
}

export interface ServerPair {
  readonly ours: RunningServer
  readonly baseline: RunningServer
  /** Started only when a scenario it serves is measured. */
  readonly peer?: RunningServer | undefined
}

export interface ServerOptions {
  readonly databaseUrl: string
  /** A request that must answer 200 once the server is up. */
  readonly probe: { readonly path: string; readonly headers: Record<string, string> }
  /** Extra node flags, e.g. `--cpu-prof`. */
  readonly nodeFlags?: ReadonlyArray<string>
  /** Working directory (where `--cpu-prof` writes its profile). */
  readonly cwd?: string
  /** A file that gets all the process's standard output (`--trace-gc-nvp`'s lines, `bench/gc-promotion.ts`). */
  readonly stdoutFile?: string
  /** Another costline build to measure as `ours` (e.g. a checkout of main, for an A/B). */
  readonly costline?: string | undefined
  /** The node binary to run the server with; default: the one running the bench. */
  readonly node?: string | undefined
  /** Extra environment for the server (e.g. `NODE_DISABLE_COMPILE_CACHE=1`). */
  readonly env?: Record<string, string> | undefined
}

const statusKb = (pid: number, field: string) => {
  const match = new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(readFileSync(`/proc/${pid}/status`, "utf8"))
  return match === null ? Number.NaN : Number(match[1]) / 1024
}

const exited = (child: ChildProcess) =>
  new Promise<void>((resolve) => (child.exitCode !== null ? resolve() : child.once("exit", () => resolve())))

const untilAnswered = async (child: ChildProcess, url: string, headers: Record<string, string>, output: () => string) => {
  const deadline = performance.now() + READY_WITHIN_MS
  while (performance.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}:\n${output()}`)
    const status = await fetch(url, { headers }).then((response) => response.arrayBuffer().then(() => response.status), () => 0)
    if (status === 200) return
    if (status !== 0) throw new Error(`probe ${url} answered ${status}:\n${output()}`)
    await new Promise((resolve) => setTimeout(resolve, 5))
  }
  throw new Error(`server did not answer within ${READY_WITHIN_MS} ms:\n${output()}`)
}

export const startServer = async (kind: ServerKind, options: ServerOptions): Promise<RunningServer> => {
  const port = await freePort()
  // A directory of its own: costline keeps its development secret key under ./.costline.
  const cwd = options.cwd ?? mkdtempSync(join(tmpdir(), "costline-bench-server-"))
  const args = kind === "ours"
    ? [options.costline ?? COSTLINE, "serve", "--database", options.databaseUrl, "--port", String(port)]
    : [kind === "peer" ? PEER : kind === "floor" ? FLOOR : BASELINE, "--database", options.databaseUrl, "--port", String(port)]
  const started = performance.now()
  const child = spawn(options.node ?? process.execPath, [...(options.nodeFlags ?? []), ...args], {
    cwd,
    // No deadline to meet: a million-row attribution on a busy machine may take longer than 30 s.
    env: { ...process.env, COSTLINE_RATE_LIMIT: "off", COSTLINE_ATTRIBUTION_TIMEOUT_MS: "600000", ...options.env },
    stdio: ["ignore", "pipe", "pipe"]
  })
  // Only the tail, for error messages: costline logs every request.
  let output = ""
  const keep = (chunk: Buffer) => (output = (output + chunk.toString("utf8")).slice(-OUTPUT_KEPT))
  child.stdout!.on("data", keep)
  if (options.stdoutFile !== undefined) child.stdout!.pipe(createWriteStream(options.stdoutFile))
  child.stderr!.on("data", keep)
  const origin = `http://127.0.0.1:${port}`
  try {
    await untilAnswered(child, origin + options.probe.path, options.probe.headers, () => output)
  } catch (error) {
    child.kill("SIGKILL")
    throw error
  }
  const coldStartMs = performance.now() - started
  const pid = child.pid!
  // The high-water mark before the last reset: resetting it must not lose the process's peak.
  let earlierPeakMb = 0
  const peakMb = () => statusKb(pid, "VmHWM")
  return {
    kind,
    origin,
    pid,
    coldStartMs,
    memory: () => ({ rssMb: statusKb(pid, "VmRSS"), peakRssMb: Math.max(earlierPeakMb, peakMb()) }),
    watchPeak: () => {
      earlierPeakMb = Math.max(earlierPeakMb, peakMb())
      // Linux: writing 5 to clear_refs resets VmHWM to the current RSS.
      writeFileSync(`/proc/${pid}/clear_refs`, "5")
      return peakMb
    },
    ...watched(pid),
    stop: async () => {
      child.kill("SIGTERM")
      await exited(child)
      if (options.cwd === undefined) rmSync(cwd, { recursive: true, force: true })
    }
  }
}
