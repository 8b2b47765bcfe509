/**
 * The lock a write transaction's two ways in share: a synchronous try beside the waiting take,
 * waiters woken on release, and nothing held by a fiber interrupted while it waited.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Fiber, identity } from "effect"
import * as Lock from "../src/Lock.js"

describe("Lock", () => {
  it("is taken by one try at a time, synchronously, and free again after its release", () => {
    const lock = Lock.make()
    expect(lock.tryTake()).toBe(true)
    expect(lock.held).toBe(true)
    expect(lock.tryTake()).toBe(false)
    lock.release()
    expect(lock.held).toBe(false)
    expect(lock.tryTake()).toBe(true)
  })

  it.effect("a take waits while the lock is held and goes on when it is released", () =>
    Effect.gen(function*() {
      const lock = Lock.make()
      expect(lock.tryTake()).toBe(true)
      const waiter = yield* Effect.fork(Effect.uninterruptibleMask((restore) => Effect.as(lock.take(restore), "taken")))
      yield* Effect.yieldNow()
      expect(lock.waiting).toBe(1)
      expect(waiter.unsafePoll()).toBeNull()
      lock.release()
      expect(yield* Fiber.join(waiter)).toBe("taken")
      expect(lock.held).toBe(true)
      expect(lock.waiting).toBe(0)
    }))

  it.effect("withLock runs one effect at a time and gives the lock back when the effect fails", () =>
    Effect.gen(function*() {
      const lock = Lock.make()
      const order: Array<string> = []
      const step = (name: string) =>
        lock.withLock(Effect.gen(function*() {
          order.push(`${name} in`)
          yield* Effect.yieldNow()
          order.push(`${name} out`)
        }))
      yield* Effect.all([step("a"), step("b"), step("c")], { concurrency: "unbounded" })
      expect(order).toEqual(["a in", "a out", "b in", "b out", "c in", "c out"])
      const failed = yield* Effect.flip(lock.withLock(Effect.fail("boom")))
      expect(failed).toBe("boom")
      expect(lock.held).toBe(false)
    }))

  /** A held lock and two fibers waiting for it. */
  const twoWaiting = Effect.gen(function*() {
    const lock = Lock.make()
    expect(lock.tryTake()).toBe(true)
    const first = yield* Effect.fork(lock.withLock(Effect.succeed("first")))
    const second = yield* Effect.fork(lock.withLock(Effect.succeed("second")))
    yield* Effect.yieldNow()
    expect(lock.waiting).toBe(2)
    return { lock, first, second }
  })

  it.effect("a waiter interrupted while it waits takes nothing, and the next waiter still gets the lock", () =>
    Effect.gen(function*() {
      const { first, lock, second } = yield* twoWaiting
      yield* Fiber.interrupt(first)
      expect(lock.waiting).toBe(1)
      lock.release()
      expect(yield* Fiber.join(second)).toBe("second")
      expect(lock.held).toBe(false)
    }))

  it.effect("a waiter woken and interrupted before it runs leaves the lock to the others", () =>
    Effect.gen(function*() {
      const { first, lock, second } = yield* twoWaiting
      // Woken (both are) and interrupted in the same step, before either fiber runs again.
      lock.release()
      yield* Fiber.interruptFork(first)
      expect(yield* Fiber.join(second)).toBe("second")
      expect(lock.held).toBe(false)
    }))

  it.effect("a take under an uninterruptible caller waits uninterruptibly (the transaction's slow way in)", () =>
    Effect.gen(function*() {
      const lock = Lock.make()
      expect(lock.tryTake()).toBe(true)
      const waiter = yield* Effect.fork(Effect.uninterruptible(lock.take(identity)))
      yield* Effect.yieldNow()
      const interrupting = yield* Effect.fork(Fiber.interrupt(waiter))
      yield* Effect.yieldNow()
      expect(interrupting.unsafePoll()).toBeNull()
      lock.release()
      yield* Fiber.join(interrupting)
      // It took the lock before the interruption could land: its caller must give it back.
      expect(lock.held).toBe(true)
    }))
})
