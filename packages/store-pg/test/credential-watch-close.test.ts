/**
 * Closing the credential watch's connection gives up after its timeout even though it runs as a
 * release (uninterruptibly): a server that never acknowledges the end must not hold the store's
 * close, and with it the process's shutdown. The client here is one whose `end()` never settles.
 */
import { expect, it } from "@effect/vitest"
import { Effect, Fiber, Option, TestClock } from "effect"
import type pg from "pg"
import { close } from "../src/CredentialWatch.js"

it.effect("a close the server never answers ends at its timeout, uninterruptible as a release is, and drops the socket", () =>
  Effect.gen(function*() {
    let destroyed = false
    const silent = {
      end: () => new Promise<void>(() => {}),
      connection: { stream: { destroy: () => void (destroyed = true) } }
    } as unknown as pg.Client
    // A daemon: were the close to wait for ever, the test must fail, not wait with it.
    const closing = yield* Effect.forkDaemon(Effect.uninterruptible(close(silent)))
    yield* TestClock.adjust("1 second")
    for (let turn = 0; turn < 10 && Option.isNone(yield* Fiber.poll(closing)); turn++) yield* Effect.yieldNow()
    expect(Option.isSome(yield* Fiber.poll(closing))).toBe(true)
    expect(destroyed).toBe(true)
  }))
