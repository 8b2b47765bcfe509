/**
 * Small answers written together, at the end of the event loop's turn that made them, in the
 * order they were made. An answer written at once on a TCP connection to a client on the same
 * host (a load generator, a reverse proxy or sidecar in front of the server) wakes that client
 * in the write's system call: measured on this machine, a server answering at ~160 µs of CPU a
 * request paid ~30 µs of it in each `end()` (half in the kernel), against ~2 µs for the same
 * write from a server fast enough that its client never slept. Written back to back, the turn's
 * answers wake the client once: ~8 µs a write, and 169 → 142 µs of CPU a request in all (issue
 * 19; `bench/floor/slow-bare.mjs`).
 *
 * Bounded, so that batching costs neither latency nor memory: an answer of `LARGE_ANSWER_BYTES`
 * or more (an audit page, a stream) is written at once (its write costs far more than a wake-up;
 * held, a turn of 64 audit pages kept up to 40 MB more resident), the queue is written as soon as
 * its first answer has waited `MAX_WAIT_MS` (a turn that reads many requests of a few
 * milliseconds each would otherwise hold the first answer for all of them), and as soon as it
 * holds `MAX_QUEUED` answers (more of them made V8 promote ~5 KB of every request to the old
 * generation, below).
 */
import type { ServerResponse } from "node:http"

/** An answer this large (bytes) is written at once, as is one whose size is unknown (a stream). */
export const LARGE_ANSWER_BYTES = 64 * 1024

/**
 * The longest a queued answer waits for the turn's others (ms): well under the 20 ms p99 the
 * benchmark asks for. With `MAX_QUEUED` it bounds the wait of a slow turn's first answer (three
 * list pages take about 2 ms on this machine); reads fill the queue long before.
 */
export const MAX_WAIT_MS = 2

/**
 * The most answers that wait together. Served at 64 connections (`bench/gc-promotion.ts`), queues
 * of up to 4 answers promoted what writing each answer at once promotes (~0.4 KB a read, ~1.1 KB
 * a list page), and queues of 5 or more ~5 KB of every request, read or page alike, whatever the
 * size of the young generation (4 or 8 MB): the old generation then filled in well under a
 * second, ten full collections in six seconds against one, and a list page cost 12% more CPU and
 * the server's peak 20–25 MB more memory (issue 19). Back to back, four answers still wake their
 * client about once.
 */
export const MAX_QUEUED = 4

/**
 * `write` (of `res`, whose body has `bytes` bytes, undefined when unknown): queued to run at the
 * end of this turn (`setImmediate`) after every write queued before it, or at once when large,
 * when the queue has waited long enough or when it is full (then with the queue's writes before
 * it). A write that throws (node refusing a header, say) destroys its connection, so its client
 * sees the connection reset instead of waiting, and the other writes go on.
 */
export type Enqueue = (res: ServerResponse, bytes: number | undefined, write: () => void) => void

const attempt = (res: ServerResponse, write: () => void) => {
  try {
    write()
  } catch {
    res.destroy()
  }
}

/**
 * One queue, shared by the requests of one handler. `schedule` runs the end-of-turn flush and
 * `now` reads the clock in milliseconds (a test drives both).
 */
export const make = (
  schedule: (flush: () => void) => void = setImmediate,
  now: () => number = performance.now.bind(performance)
): Enqueue => {
  let queued: Array<readonly [ServerResponse, () => void]> = []
  let firstAt = 0
  const flush = () => {
    const writes = queued
    queued = []
    for (const [res, write] of writes) attempt(res, write)
  }
  return (res, bytes, write) => {
    if (bytes === undefined || bytes >= LARGE_ANSWER_BYTES) {
      flush()
      return attempt(res, write)
    }
    queued.push([res, write])
    if (queued.length === 1) {
      firstAt = now()
      schedule(flush)
    } else if (queued.length >= MAX_QUEUED || now() - firstAt >= MAX_WAIT_MS) {
      flush()
    }
  }
}
