import { describe, expect, it } from "@effect/vitest"
import { DateTime, FastCheck as fc, Option } from "effect"
import { isDeepStrictEqual } from "node:util"
import { detectorContentOf, InsightId } from "../../src/insights/Domain.js"
import * as ETag from "../../src/insights/ETag.js"
import { mergeUpsert } from "../../src/insights/Upsert.js"
import { detectorContent, insight, upsertFor } from "./arbitraries.js"

const fresh = {
  id: InsightId.make("7f0c2f9e-3c1e-4d5b-9a57-2b1f0e6a9c11"),
  now: DateTime.unsafeMake("2031-06-01T12:00:00Z")
}

describe("mergeUpsert", () => {
  it.prop("creates an open, unassigned, unviewed insight whose ETag is its state's", [detectorContent], ([content]) => {
    const created = mergeUpsert(upsertFor("select_star", content), fresh)(Option.none())
    expect(Option.getOrThrow(created)).toMatchObject({
      ...content,
      id: fresh.id,
      insight_type: "select_star",
      status: "open",
      assignee: null,
      create_time: fresh.now,
      update_time: fresh.now,
      first_viewed_by: null,
      last_viewed_by: null,
      first_viewed_at: null,
      last_viewed_at: null,
      view_count: 0
    })
    const insight = Option.getOrThrow(created)
    expect(insight.etag).toBe(ETag.forInsight(insight))
  })

  it.prop("leaves an insight alone when its content is already there", [insight], ([existing]) => {
    const again = upsertFor(existing.insight_type, detectorContentOf(existing))
    expect(mergeUpsert(again, fresh)(Option.some(existing))).toStrictEqual(Option.none())
  })

  it.prop(
    "replaces changed content but keeps the users' fields, the views and the identity",
    [insight, detectorContent],
    ([existing, content]) => {
      fc.pre(!isDeepStrictEqual(JSON.parse(JSON.stringify(detectorContentOf(existing))), JSON.parse(JSON.stringify(content))))
      const updated = Option.getOrThrow(mergeUpsert(upsertFor(existing.insight_type, content), fresh)(Option.some(existing)))
      expect(updated).toMatchObject({
        ...content,
        id: existing.id,
        insight_type: existing.insight_type,
        status: existing.status,
        assignee: existing.assignee,
        create_time: existing.create_time,
        update_time: fresh.now,
        first_viewed_by: existing.first_viewed_by,
        last_viewed_by: existing.last_viewed_by,
        first_viewed_at: existing.first_viewed_at,
        last_viewed_at: existing.last_viewed_at,
        view_count: existing.view_count
      })
      expect(updated.etag).toBe(ETag.forInsight(updated))
      expect(updated.etag).not.toBe(existing.etag)
    }
  )

  it("updates an insight that stopped being current", () => {
    const content = fc.sample(detectorContent, { numRuns: 1, seed: 3 })[0]!
    const created = Option.getOrThrow(mergeUpsert(upsertFor("warehouse_idle", { ...content, is_current: true }), fresh)(Option.none()))
    const gone = mergeUpsert(upsertFor("warehouse_idle", { ...content, is_current: false }), fresh)(Option.some(created))
    expect(Option.map(gone, (i) => i.is_current)).toStrictEqual(Option.some(false))
  })
})
