import { describe, expect, expectTypeOf, it } from "@effect/vitest"
import { Effect, Either, Ref } from "effect"
import { conditionalWrite, missing, stale, written } from "../../src/shared/internal/ConditionalWrite.js"
import * as ETag from "../../src/shared/ETag.js"
import type { Conflict, PreconditionFailed } from "../../src/shared/Errors.js"
import * as Precondition from "../../src/shared/Precondition.js"

const state = { etag: ETag.compute({ name: "Data" }) }

/** A write that finds the row changed `misses` times, then lands; `reads` counts the fresh reads. */
const writeMissing = (misses: number, outcome = stale) =>
  Effect.map(Effect.all({ reads: Ref.make(0), writes: Ref.make(0) }), ({ reads, writes }) => ({
    reads,
    change: <P extends Precondition.Precondition>(precondition: P) =>
      conditionalWrite({
        what: "the team",
        precondition,
        read: Effect.as(Ref.update(reads, (n) => n + 1), state),
        write: () => Ref.getAndUpdate(writes, (n) => n + 1).pipe(Effect.map((n) => (n < misses ? outcome : written(`written after ${n} misses`))))
      })
  }))

describe("conditionalWrite", () => {
  it.effect("runs the attempt again from a fresh read until its write lands", () =>
    Effect.gen(function*() {
      const { change, reads } = yield* writeMissing(3)
      expect(yield* change(Precondition.none)).toBe("written after 3 misses")
      expect(yield* Ref.get(reads)).toBe(4)
    }))

  it.effect("a missing row is read again too (the read then answers NotFound)", () =>
    Effect.gen(function*() {
      const { change, reads } = yield* writeMissing(1, missing)
      expect(yield* change(Precondition.none)).toBe("written after 1 misses")
      expect(yield* Ref.get(reads)).toBe(2)
    }))

  it.effect("gives up with a Conflict after ten misses", () =>
    Effect.gen(function*() {
      const { change, reads } = yield* writeMissing(100)
      const error = yield* Effect.flip(change(Precondition.none))
      expect(error).toMatchObject({ _tag: "Conflict", message: "the team is being changed concurrently; retry" })
      expect(yield* Ref.get(reads)).toBe(10)
    }))

  it.effect("checks the precondition against the stored ETag before writing: `*` and the current tag pass, another fails", () =>
    Effect.gen(function*() {
      const ifMatch = (header: string) => Either.getOrThrow(Precondition.optional(header))
      expect(yield* (yield* writeMissing(0)).change(ifMatch("*"))).toBe("written after 0 misses")
      expect(yield* (yield* writeMissing(0)).change(ifMatch(state.etag))).toBe("written after 0 misses")
      const { change, reads } = yield* writeMissing(0)
      const error = yield* Effect.flip(change(ifMatch("\"old\"")))
      expect(error).toMatchObject({ _tag: "PreconditionFailed", message: "the team has changed since it was read (If-Match does not match)" })
      expect(yield* Ref.get(reads)).toBe(1)
    }))

  it.effect("passes a read's or a write's own failure through at once", () =>
    Effect.gen(function*() {
      const calls = yield* Ref.make(0)
      const failing = conditionalWrite({
        what: "x",
        precondition: Precondition.none,
        read: Effect.succeed(state),
        write: () => Ref.update(calls, (n) => n + 1).pipe(Effect.zipRight(Effect.fail("forbidden" as const)))
      })
      expect(yield* Effect.flip(failing)).toBe("forbidden")
      expect(yield* Ref.get(calls)).toBe(1)
    }))

  it("only a change under an If-Match can fail its precondition, and its error type says so", () => {
    const change = <P extends Precondition.Precondition>(precondition: P) =>
      conditionalWrite({ what: "x", precondition, read: Effect.succeed(state), write: () => Effect.succeed(written(1)) })
    expectTypeOf<Effect.Effect.Error<ReturnType<typeof change<Precondition.None>>>>().toEqualTypeOf<Conflict>()
    expectTypeOf<Effect.Effect.Error<ReturnType<typeof change<Precondition.IfMatch>>>>()
      .toEqualTypeOf<Conflict | PreconditionFailed>()
  })
})
