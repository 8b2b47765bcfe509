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

/** Whether CPU per request has settled (see steady.mjs, shared with the in-process harness). */
export const isSteady: (samples: ReadonlyArray<number>, window?: number, tolerance?: number) => boolean = isSteadyJs
