import { describe, expect, it } from "@effect/vitest"
import { Effect, Ref } from "effect"
import { STALE, untilWritten } from "../../src/shared/CompareAndSet.js"

/** An attempt that finds the row changed `misses` times, then writes. */
const attemptMissing = (misses: number) =>
  Effect.map(Ref.make(0), (calls) => ({
    calls,
    attempt: Ref.getAndUpdate(calls, (n) => n + 1).pipe(Effect.map((n) => (n < misses ? STALE : `written after ${n} misses`)))
  }))

describe("untilWritten", () => {
  it.effect("runs the attempt again from a fresh read until its write lands", () =>
    Effect.gen(function*() {
      const { attempt, calls } = yield* attemptMissing(3)
      expect(yield* untilWritten(attempt, "the team")).toBe("written after 3 misses")
      expect(yield* Ref.get(calls)).toBe(4)
    }))

  it.effect("gives up with a Conflict after ten misses", () =>
    Effect.gen(function*() {
      const { attempt, calls } = yield* attemptMissing(100)
      const error = yield* Effect.flip(untilWritten(attempt, "the team"))
      expect(error).toMatchObject({ _tag: "Conflict", message: "the team is being changed concurrently; retry" })
      expect(yield* Ref.get(calls)).toBe(10)
    }))

  it.effect("passes an attempt's own failure through at once", () =>
    Effect.gen(function*() {
      const calls = yield* Ref.make(0)
      const failing = Ref.update(calls, (n) => n + 1).pipe(Effect.zipRight(Effect.fail("precondition" as const)))
      expect(yield* Effect.flip(untilWritten(failing, "x"))).toBe("precondition")
      expect(yield* Ref.get(calls)).toBe(1)
    }))
})
