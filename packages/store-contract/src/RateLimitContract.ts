/**
 * Contract: rate-limit state and store health. Whatever a store keeps the GCRA state in, each
 * step must be exactly `Gcra.step` on the key's previous TAT, keys must not share budgets, and
 * concurrent steps on one key must be applied one after the other (never two on the same TAT).
 */
import { describe, expect, type Vitest } from "@effect/vitest"
import { Effect } from "effect"
// @effect/vitest's it.prop takes Effect's bundled fast-check, not the root package's.
import { FastCheck as fc } from "effect"
import { randomUUID } from "node:crypto"
import { Gcra, RateLimitRepo, StoreHealth } from "@costline/core"
import type { ContractServices } from "./Fixtures.js"

const freshKey = () => `contract:${randomUUID()}`

/** A plausible wall-clock time in ms, far from 0 so the arithmetic meets realistic magnitudes. */
const T0 = Date.parse("2025-03-01T12:00:00Z")

const rule = Gcra.parameters({ requestsPerSecond: 4, burst: 3 })

export const rateLimitContract = (it: Vitest.MethodsNonLive<ContractServices>) => {
  describe("rate limits", () => {
    it.effect("admits a burst at once, refuses the next request, and admits again once time has passed", () =>
      Effect.gen(function*() {
        const repo = yield* RateLimitRepo.RateLimitRepo
        const key = freshKey()
        const burst = yield* Effect.forEach([1, 2, 3, 4], () => repo.take(key, rule, T0))
        expect(burst.map((outcome) => outcome.allowed)).toEqual([true, true, true, false])
        // Refused requests cost nothing: the TAT stays where the third request left it.
        expect(burst[3]!.tatMs).toBe(burst[2]!.tatMs)
        expect((yield* repo.take(key, rule, T0 + rule.intervalMs - 1)).allowed).toBe(false)
        expect((yield* repo.take(key, rule, T0 + rule.intervalMs)).allowed).toBe(true)
      }))

    it.effect("keys have budgets of their own", () =>
      Effect.gen(function*() {
        const repo = yield* RateLimitRepo.RateLimitRepo
        const [spent, fresh] = [freshKey(), freshKey()]
        yield* Effect.forEach([1, 2, 3], () => repo.take(spent, rule, T0))
        expect((yield* repo.take(spent, rule, T0)).allowed).toBe(false)
        expect((yield* repo.take(fresh, rule, T0)).allowed).toBe(true)
      }))

    it.effect.prop(
      "every step is Gcra.step on the key's previous TAT, to the bit",
      {
        requestsPerSecond: fc.double({ min: 0.5, max: 500, noNaN: true }),
        burst: fc.integer({ min: 1, max: 20 }),
        steps: fc.array(fc.record({ key: fc.integer({ min: 0, max: 2 }), advanceMs: fc.nat({ max: 400 }) }), {
          minLength: 1,
          maxLength: 25
        })
      },
      ({ burst, requestsPerSecond, steps }) =>
        Effect.gen(function*() {
          const repo = yield* RateLimitRepo.RateLimitRepo
          const stepRule = Gcra.parameters({ requestsPerSecond, burst })
          const keys = [freshKey(), freshKey(), freshKey()]
          const model = new Map<string, number>()
          let now = T0
          for (const { advanceMs, key: index } of steps) {
            now += advanceMs
            const key = keys[index]!
            const expected = Gcra.step(stepRule, model.get(key), now)
            model.set(key, expected.tatMs)
            expect(yield* repo.take(key, stepRule, now)).toEqual(expected)
          }
        }),
      { fastCheck: { numRuns: 40 } }
    )

    it.effect("concurrent requests on one key are applied one after the other", () =>
      Effect.gen(function*() {
        const repo = yield* RateLimitRepo.RateLimitRepo
        const key = freshKey()
        const outcomes = yield* Effect.forEach(Array.from({ length: 12 }), () => repo.take(key, rule, T0), {
          concurrency: "unbounded"
        })
        expect(outcomes.filter((outcome) => outcome.allowed)).toHaveLength(3)
        // Each admitted request moved the TAT by one interval: no two were applied to the same TAT.
        const admittedTats = outcomes.filter((outcome) => outcome.allowed).map((outcome) => outcome.tatMs).sort((a, b) => a - b)
        expect(admittedTats).toEqual([1, 2, 3].map((n) => T0 + n * rule.intervalMs))
      }))
  })

  describe("store health", () => {
    it.effect("a migrated store has no pending migrations", () =>
      Effect.gen(function*() {
        const health = yield* StoreHealth.StoreHealth
        expect((yield* health.check).pendingMigrations).toEqual([])
      }))
  })
}
