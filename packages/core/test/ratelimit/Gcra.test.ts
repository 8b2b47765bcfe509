import { Gcra } from "@costline/core"
import { describe, expect, it } from "@effect/vitest"
import * as fc from "fast-check"

const T0 = 1_700_000_000_000
const policy = { requestsPerSecond: 50, burst: 100 }
const rule = Gcra.parameters(policy)

/** Sends `count` requests at `now` on one key; returns the outcomes and the final TAT. */
const burst = (count: number, now: number, tat?: number) => {
  const outcomes: Array<Gcra.Outcome> = []
  let current = tat
  for (let i = 0; i < count; i++) {
    const outcome = Gcra.step(rule, current, now)
    outcomes.push(outcome)
    current = outcome.tatMs
  }
  return { outcomes, tat: current }
}

describe("Gcra", () => {
  it("derives the interval and the limit from the policy", () => {
    expect(rule).toEqual({ intervalMs: 20, limitMs: 2000 })
  })

  it("admits exactly the burst at one instant", () => {
    const { outcomes } = burst(150, T0)
    expect(outcomes.filter((outcome) => outcome.allowed)).toHaveLength(100)
    expect(outcomes.findIndex((outcome) => !outcome.allowed)).toBe(100)
  })

  it("admits the sustained rate after the burst is spent", () => {
    const { tat } = burst(100, T0)
    expect(Gcra.step(rule, tat, T0 + 19).allowed).toBe(false)
    expect(Gcra.step(rule, tat, T0 + 20).allowed).toBe(true)
  })

  it("a refused request leaves the state as it was", () => {
    const { tat } = burst(100, T0)
    expect(Gcra.step(rule, tat, T0)).toEqual({ allowed: false, tatMs: tat })
  })

  it("a key idle for long starts from now, not from its old TAT", () => {
    expect(Gcra.step(rule, T0, T0 + 60_000)).toEqual({ allowed: true, tatMs: T0 + 60_020 })
  })

  it("tells what remains, when the budget is whole again and when to retry", () => {
    const first = Gcra.step(rule, undefined, T0)
    expect(Gcra.decide(rule, first, T0)).toEqual({ allowed: true, remaining: 99, resetAfterMs: 20, retryAfterMs: 0 })
    const { outcomes, tat } = burst(101, T0)
    expect(Gcra.decide(rule, outcomes[99]!, T0)).toMatchObject({ allowed: true, remaining: 0, resetAfterMs: 2000 })
    expect(Gcra.decide(rule, outcomes[100]!, T0)).toEqual({
      allowed: false,
      remaining: 0,
      resetAfterMs: 2000,
      retryAfterMs: 20
    })
    expect(tat).toBe(T0 + 2000)
  })

  it.prop(
    "never admits more than burst + rate × elapsed requests",
    {
      requestsPerSecond: fc.double({ min: 0.1, max: 1000, noNaN: true }),
      burst: fc.integer({ min: 1, max: 200 }),
      gaps: fc.array(fc.nat({ max: 1000 }), { minLength: 1, maxLength: 300 })
    },
    ({ burst: size, gaps, requestsPerSecond }) => {
      const propRule = Gcra.parameters({ requestsPerSecond, burst: size })
      let tat: number | undefined
      let now = T0
      let admitted = 0
      for (const gap of gaps) {
        now += gap
        const outcome = Gcra.step(propRule, tat, now)
        tat = outcome.tatMs
        if (outcome.allowed) admitted += 1
      }
      expect(admitted).toBeLessThanOrEqual(size + Math.floor(((now - T0) * requestsPerSecond) / 1000) + 1e-9)
    }
  )

  it.prop(
    "a refused request would be admitted exactly retryAfterMs later",
    { count: fc.integer({ min: 101, max: 160 }), later: fc.nat({ max: 500 }) },
    ({ count, later }) => {
      const { outcomes, tat } = burst(count, T0)
      const refused = Gcra.decide(rule, outcomes.at(-1)!, T0)
      expect(refused.allowed).toBe(false)
      const now = T0 + later
      expect(Gcra.step(rule, tat, now).allowed).toBe(later >= refused.retryAfterMs)
    }
  )
})
