/**
 * A server's own CPU time, read from Linux's `/proc/<pid>/stat` (user + system time of every
 * thread of the process: the event loop, V8's compiler and collector threads, libuv's pool).
 * CPU per request is the benchmark's steadiest figure on a shared machine: load from other
 * processes delays a server's requests but does not add to its CPU time.
 */
import { execFileSync } from "node:child_process"
import { readFileSync } from "node:fs"
import { isSteadyJs } from "./steady.mjs"

/** Clock ticks per second (`getconf CLK_TCK`; 100 on Linux unless built otherwise). */
const ticksPerSecond = (() => {
  try {
    const value = Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim())
    return Number.isFinite(value) && value > 0 ? value : 100
  } catch {
    return 100
  }
})()

/**
 * utime + stime in clock ticks, from the text of `/proc/<pid>/stat`. The command name (field 2)
 * is in parentheses and may hold spaces, so fields are counted after its closing parenthesis:
 * utime and stime are fields 14 and 15 of the line.
 */
export const cpuTicks = (stat: string): number => {
  const fields = stat.slice(stat.lastIndexOf(")") + 2).trim().split(/\s+/)
  // After ")" come field 3 (state) onwards: utime is field 14, index 11 here.
  const utime = Number(fields[11])
  const stime = Number(fields[12])
  if (!Number.isFinite(utime) || !Number.isFinite(stime)) throw new Error(`not a /proc/<pid>/stat line: ${stat.slice(0, 80)}`)
  return utime + stime
}

/** The process's CPU time so far, in microseconds (resolution: one clock tick, 10 ms at 100 Hz). */
export const cpuMicros = (pid: number): number =>
  (cpuTicks(readFileSync(`/proc/${pid}/stat`, "utf8")) * 1_000_000) / ticksPerSecond

/** The smallest CPU time a warm-up sample should span: 25 clock ticks, so within 4% (a tick is the resolution). */
export const MIN_MEASURED_CPU_MICROS = (25 * 1_000_000) / ticksPerSecond

/** The state of the process's main thread (`R` running or waiting for a core, `S` sleeping, …). */
export const processState = (stat: string): string => stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3)

/** A process as `untilIdle` watches it. */
export interface Watched {
  /** CPU time so far, µs. */
  readonly cpuMicros: () => number
  /** Whether its main thread is running or waiting for a core right now. */
  readonly running: () => boolean
}

export const watched = (pid: number): Watched => ({
  cpuMicros: () => cpuMicros(pid),
  running: () => processState(readFileSync(`/proc/${pid}/stat`, "utf8")) === "R"
})

/** How a process is judged idle (see `untilIdle`). */
export interface IdleOptions {
  /** Length of one observation. */
  readonly intervalMs: number
  /** How often the main thread's state is read within it. */
  readonly sampleMs: number
  /** CPU time over the interval at or below which the process may count as idle. */
  readonly idleMicros: number
  readonly timeoutMs: number
}

/**
 * 100 ms with the main thread never seen runnable (read every 5 ms) and at most one clock tick
 * of CPU (10 ms at 100 Hz). The state matters on a loaded machine: a server working off a backlog
 * may get less than a tick of CPU in 100 ms while it waits for a core, but it is runnable (`R`)
 * throughout, where an idle one sleeps in epoll (`S`).
 */
export const DEFAULT_IDLE: IdleOptions = { intervalMs: 100, sampleMs: 5, idleMicros: 1_000_000 / ticksPerSecond, timeoutMs: 600_000 }

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/**
 * Waits until a process has stopped working, and says how long that took (ms). A load run ends
 * with its connections closed, but requests already read go on running: a server answering an
 * aggregate in 0.3 s that had 64 of them in flight is busy for another ~20 s, and the next run
 * (or the other server's, on this 2-core machine) would be measured against that backlog.
 * Fails after `timeoutMs`: a process that never goes quiet is a broken benchmark.
 */
export const untilIdle = async (process: Watched, options: IdleOptions = DEFAULT_IDLE): Promise<number> => {
  const started = performance.now()
  for (;;) {
    if (performance.now() - started > options.timeoutMs) {
      throw new Error(`the server was still busy ${Math.round(options.timeoutMs / 1000)} s after its load run ended`)
    }
    const cpuBefore = process.cpuMicros()
    const observed = performance.now()
    let seenRunning = false
    while (performance.now() - observed < options.intervalMs) {
      await sleep(options.sampleMs)
      seenRunning ||= process.running()
    }
    if (!seenRunning && process.cpuMicros() - cpuBefore <= options.idleMicros) return performance.now() - started
  }
}

/** Whether CPU per request has settled (see steady.mjs, shared with the in-process harness). */
export const isSteady: (samples: ReadonlyArray<number>, window?: number, tolerance?: number) => boolean = isSteadyJs
