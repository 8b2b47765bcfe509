/**
 * Responses written together, at the end of the event loop's turn that made them, in the order
 * they were made. A response written at once on a TCP connection to a client on the same host
 * (a load generator, a reverse proxy or sidecar in front of the server) wakes that client in the
 * write's system call: measured on this machine, a server answering at ~160 µs of CPU a request
 * paid ~30 µs of it in each `end()` (half in the kernel), against ~2 µs for the same write from a
 * server fast enough that its client never slept. Written back to back after the turn's other
 * work, the turn's responses wake the client once: ~8 µs a write, and 169 → 142 µs of CPU a
 * request in all (issue 19; `bench/floor/slow-bare.mjs`). A response waits at most for the rest of its
 * turn: the requests the turn already read, nothing that arrives later; a lone request's turn
 * ends as soon as it is answered.
 */
import type { ServerResponse } from "node:http"

/**
 * Queues `write` (of `res`) to run at the end of this turn (`setImmediate`), after every write
 * queued before it in the turn. A write that throws (node refusing a header, say) destroys its
 * connection, so its client sees the connection reset instead of waiting, and the turn's other
 * writes go on.
 */
export type Enqueue = (res: ServerResponse, write: () => void) => void

/** One queue, shared by the requests of one handler; `schedule` runs the flush (a test runs it by hand). */
export const make = (schedule: (flush: () => void) => void = setImmediate): Enqueue => {
  let queued: Array<readonly [ServerResponse, () => void]> = []
  const flush = () => {
    const writes = queued
    queued = []
    for (const [res, write] of writes) {
      try {
        write()
      } catch {
        res.destroy()
      }
    }
  }
  return (res, write) => {
    queued.push([res, write])
    if (queued.length === 1) schedule(flush)
  }
}
