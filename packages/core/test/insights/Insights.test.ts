import { describe, expect, it } from "@effect/vitest"
import { Either, FastCheck as fc } from "effect"
import { parseInsightId } from "../../src/insights/Insights.js"

describe("parseInsightId", () => {
  it.prop("accepts a UUID in any case, as the lower-case id insights are stored under", [fc.uuid()], ([uuid]) => {
    expect(parseInsightId(uuid.toUpperCase())).toStrictEqual(Either.right(uuid.toLowerCase()))
  })

  it.prop("anything else names no insight: NotFound, echoing what was asked for", [fc.string()], ([raw]) => {
    fc.pre(!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(raw))
    const parsed = parseInsightId(raw)
    expect(Either.isLeft(parsed) && parsed.left).toMatchObject({ _tag: "NotFound", resource: "insight", id: raw })
  })
})
