import { describe, expect, it } from "@effect/vitest"
import { Either, FastCheck as fc, Option } from "effect"
import { Insight, InsightUpdate } from "../../src/insights/Domain.js"
import * as ETag from "../../src/insights/ETag.js"
import * as Transitions from "../../src/insights/InsightStatus.js"
import { applyUpdate } from "../../src/insights/Update.js"
import { InvalidTransition } from "../../src/shared/Errors.js"
import { email, insight, status } from "./arbitraries.js"

const patch = fc.record(
  { status, assignee: fc.option(email, { nil: null }) },
  { requiredKeys: [] }
).map((fields) => new InsightUpdate(fields))

const sample = fc.sample(insight, { numRuns: 1, seed: 42 })[0]!
const withState = (status: Insight["status"], assignee: string | null) =>
  new Insight({ ...sample, status, assignee, etag: ETag.forInsight({ ...sample, status, assignee }) })

describe("applyUpdate", () => {
  it("changes nothing for an empty patch or one that repeats the current values", () => {
    const current = withState("in_progress", "ann@example.com")
    expect(applyUpdate(current, new InsightUpdate({}))).toStrictEqual(Either.right(Option.none()))
    expect(applyUpdate(current, new InsightUpdate({ status: "in_progress", assignee: "Ann@Example.com" })))
      .toStrictEqual(Either.right(Option.none()))
  })

  it("moves the status and gives the ETag of the new state", () => {
    const current = withState("open", null)
    expect(applyUpdate(current, new InsightUpdate({ status: "resolved" }))).toStrictEqual(
      Either.right(Option.some({
        status: "resolved",
        assignee: null,
        etag: ETag.forInsight({ ...current, status: "resolved" })
      }))
    )
  })

  it("unassigns with null and stores a new assignee's email in lower case", () => {
    const assigned = withState("open", "ann@example.com")
    expect(Either.map(applyUpdate(assigned, new InsightUpdate({ assignee: null })), Option.map((e) => e.assignee)))
      .toStrictEqual(Either.right(Option.some(null)))
    expect(Either.map(applyUpdate(assigned, new InsightUpdate({ assignee: "Bob@Example.com" })), Option.map((e) => e.assignee)))
      .toStrictEqual(Either.right(Option.some("bob@example.com")))
  })

  it("refuses a move outside the table, even with another change in the patch", () => {
    const dismissed = withState("dismissed", null)
    expect(applyUpdate(dismissed, new InsightUpdate({ status: "resolved", assignee: "ann@example.com" })))
      .toStrictEqual(Either.left(new InvalidTransition({ from: "dismissed", to: "resolved" })))
  })

  it.prop("fails exactly on moves outside the table; otherwise edits or is a no-op", [insight, patch], ([current, p]) => {
    const result = applyUpdate(current, p)
    const to = p.status ?? current.status
    if (!Transitions.isAllowed(current.status, to)) {
      expect(result).toStrictEqual(Either.left(new InvalidTransition({ from: current.status, to })))
      return
    }
    const assignee = p.assignee === undefined ? current.assignee : p.assignee?.toLowerCase() ?? null
    const unchanged = to === current.status && assignee === current.assignee
    expect(result).toStrictEqual(
      Either.right(unchanged ? Option.none() : Option.some({ status: to, assignee, etag: expect.any(String) }))
    )
    // An edit always yields a new ETag: clients holding the old one get 412.
    if (Either.isRight(result) && Option.isSome(result.right)) expect(result.right.value.etag).not.toBe(current.etag)
  })
})
