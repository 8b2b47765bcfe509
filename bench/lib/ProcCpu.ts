/**
 * CPU seconds (user + system) of a process tree from /proc (Linux): the load-independent measure
 * of a server's work, e.g. the embedded Postgres's postmaster and all its processes. A child that
 * has exited is in its parent's `cutime`/`cstime` once reaped (the postmaster reaps its backends),
 * a live one is read from its own `stat`.
 */
import { readdirSync, readFileSync } from "node:fs"

const TICKS_PER_SECOND = 100

/** utime, stime, cutime, cstime and the parent's pid of `/proc/<pid>/stat`, or undefined when gone. */
const stat = (pid: number) => {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, "utf8")
    // The command name may hold spaces and parentheses: the fields start after the last ")".
    const fields = text.slice(text.lastIndexOf(")") + 2).split(" ")
    const at = (field: number) => Number(fields[field - 3])
    return { ppid: at(4), own: at(14) + at(15), children: at(16) + at(17) }
  } catch {
    return undefined
  }
}

/** CPU seconds so far of `pid`, its reaped children and its live children (one level, as the postmaster's are). */
export const treeCpuSeconds = (pid: number): number => {
  const root = stat(pid)
  if (root === undefined) return Number.NaN
  let ticks = root.own + root.children
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue
    const child = stat(Number(entry))
    if (child !== undefined && child.ppid === pid) ticks += child.own
  }
  return ticks / TICKS_PER_SECOND
}

/** The 1-minute load average. */
export const loadAverage = (): string => readFileSync("/proc/loadavg", "utf8").split(" ")[0]!
