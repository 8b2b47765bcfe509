/**
 * A node request's body, read from its stream once, by whoever asks first, and kept. Every later
 * read (the nesting check, the storable-input check, the endpoint's decoding, an error's report)
 * is the kept outcome, answered in one interpreter step.
 *
 * This replaces `Effect.cached` over the platform's `NodeStream.toString`, which cost ~30 steps
 * and a semaphore on every read (a PATCH reads its body four times). It also replaces the read
 * timeout's forked read raced against a sleeping fiber (~140 steps, two fibers and the clock's
 * timer per request with a body, issue 19): a reader that waits with a deadline now has a timer
 * of its own.
 *
 * A reader that leaves (timed out, interrupted) leaves the read running: stopping it would leave
 * the body's unread rest on the connection, to be taken for the next request. The read ends when
 * the body is in, when it passes the first reader's size bound (the stream is destroyed, as the
 * platform does), or when the request's stream fails or closes.
 */
import { HttpServerError } from "@effect/platform"
import { Effect, Exit } from "effect"
import type { IncomingMessage } from "node:http"

export type Outcome = Exit.Exit<string, HttpServerError.RequestError>

export class NodeBody {
  /** The read's outcome, once it has one. */
  #outcome: Outcome | undefined
  /** Whoever waits for the outcome; undefined until the read starts. */
  #waiters: Set<(outcome: Outcome) => void> | undefined

  constructor(
    private readonly source: IncomingMessage,
    private readonly onError: (cause: unknown) => HttpServerError.RequestError
  ) {}

  /** The outcome when the read has one, else undefined. */
  get outcome(): Outcome | undefined {
    return this.#outcome
  }

  /** The body's text. The first read starts reading, bounded at `maxBytes` (none when undefined). */
  read(maxBytes: number | undefined): Effect.Effect<string, HttpServerError.RequestError> {
    return this.#outcome ?? Effect.async((resume) => {
      const leave = this.#wait(maxBytes, resume)
      return Effect.sync(leave)
    })
  }

  /**
   * Waits until the read has its outcome, whatever it is (a later `read` reports it), or fails
   * with `onTimeout()` after `timeoutMs`. Starts the read when none has.
   */
  settledWithin<E>(maxBytes: number | undefined, timeoutMs: number, onTimeout: () => E): Effect.Effect<void, E> {
    if (this.#outcome !== undefined) return Effect.void
    return Effect.async<void, E>((resume) => {
      const timer = setTimeout(() => {
        leave()
        resume(Effect.fail(onTimeout()))
      }, timeoutMs)
      const leave = this.#wait(maxBytes, () => {
        clearTimeout(timer)
        resume(Effect.void)
      })
      return Effect.sync(() => {
        clearTimeout(timer)
        leave()
      })
    })
  }

  /** Adds a waiter (called at once when the outcome is known); returns how it leaves. */
  #wait(maxBytes: number | undefined, waiter: (outcome: Outcome) => void): () => void {
    if (this.#outcome !== undefined) {
      waiter(this.#outcome)
      return () => {}
    }
    const waiters = this.#waiters ?? this.#start(maxBytes)
    waiters.add(waiter)
    return () => void this.#waiters?.delete(waiter)
  }

  #start(maxBytes: number | undefined): Set<(outcome: Outcome) => void> {
    const waiters = this.#waiters = new Set()
    const source = this.source
    const chunks: Array<Buffer> = []
    let bytes = 0
    const finish = (outcome: Outcome) => {
      if (this.#outcome !== undefined) return
      this.#outcome = outcome
      this.#waiters = undefined
      source.off("data", onData)
      source.off("end", onEnd)
      source.off("error", onFailure)
      source.off("close", onClose)
      for (const waiter of waiters) waiter(outcome)
    }
    const onData = (chunk: Buffer | string) => {
      const piece = typeof chunk === "string" ? Buffer.from(chunk) : chunk
      bytes += piece.byteLength
      if (maxBytes !== undefined && bytes > maxBytes) {
        finish(Exit.fail(this.onError(new Error("maxBytes exceeded"))))
        source.destroy()
        return
      }
      chunks.push(piece)
    }
    const onEnd = () =>
      finish(Exit.succeed(chunks.length === 1 ? chunks[0]!.toString("utf8") : Buffer.concat(chunks, bytes).toString("utf8")))
    const onFailure = (error: unknown) => finish(Exit.fail(this.onError(error)))
    const onClose = () => onFailure(new Error("the request closed before its body ended"))
    // A stream someone else has read or ended would never say "end" again.
    if (source.readableEnded || source.destroyed) {
      queueMicrotask(() => onFailure(new Error("the request's body was read already")))
      return waiters
    }
    source.on("data", onData)
    source.on("end", onEnd)
    source.on("error", onFailure)
    source.on("close", onClose)
    return waiters
  }
}
