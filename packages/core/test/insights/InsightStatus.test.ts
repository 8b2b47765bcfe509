import { describe, expect, it } from "@effect/vitest"
import { Either } from "effect"
import { InsightStatus } from "../../src/insights/Domain.js"
import * as Transitions from "../../src/insights/InsightStatus.js"
import { InvalidTransition } from "../../src/shared/Errors.js"

/**
 * The rule of API-DECISIONS.md in words, as an oracle independent of the module's table: an
 * active insight (open, in progress) may move anywhere; a closed one (resolved, dismissed) may
 * only be reopened; staying put is always allowed.
 */
const ACTIVE = new Set(["open", "in_progress"])
const oracle = (from: string, to: string) => from === to || ACTIVE.has(from) || to === "open"

const pairs = InsightStatus.literals.flatMap((from) => InsightStatus.literals.map((to) => [from, to] as const))

describe("InsightStatus transitions", () => {
  it.each(pairs)("%s → %s follows the rule", (from, to) => {
    expect(Transitions.isAllowed(from, to)).toBe(oracle(from, to))
    expect(Transitions.transition(from, to)).toStrictEqual(
      oracle(from, to) ? Either.right(to) : Either.left(new InvalidTransition({ from, to }))
    )
  })

  it("explains a refused move", () => {
    const refused = Either.flip(Transitions.transition("resolved", "dismissed"))
    expect(Either.map(refused, (e) => e.message)).toStrictEqual(
      Either.right("cannot move from 'resolved' to 'dismissed'")
    )
  })
})
