/**
 * SQLite's month scan gathers its `seq` span in chunks of SPAN_CHUNK index entries (one statement
 * over a whole month held the event loop for hundreds of milliseconds). These cases cross chunk
 * boundaries the ways a month's rows can: many rows at one instant, chunks that overlap on their
 * last start time, and rows of the month written around other months' rows.
 */
import { Core, Organizations, UsageRepo } from "@costline/core"
import type { Ids, Usage } from "@costline/core"
import { SPAN_CHUNK } from "../../store-sql/src/repos/UsageRecordsRepo.js"
import { SqliteStore } from "@costline/store-sqlite"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { randomUUID } from "node:crypto"

const store = Core.layer.pipe(Layer.provideMerge(SqliteStore.layer({ filename: ":memory:" })))

const row = (start: string, tag: string): Usage.UsageRecord => ({ start_time: new Date(start), credits: 1, query_tag: tag })

/** The query tags of every row the scan of October 2026 hands over. */
const scanOctober = (organizationId: Ids.OrganizationId) =>
  Effect.gen(function*() {
    const repo = yield* UsageRepo.UsageRecordsRepo
    const tags: Array<string> = []
    yield* repo.scan(
      { organizationId, from: new Date("2026-10-01T00:00:00Z"), to: new Date("2026-11-01T00:00:00Z") },
      (batch) => Effect.sync(() => tags.push(...batch.map((record) => record.query_tag!)))
    )
    return tags
  })

const organization = Effect.flatMap(Organizations.Organizations, (organizations) => organizations.create({ id: `org-${randomUUID()}`, name: "Scan" }))

describe("SQLite month scan across span chunks", () => {
  it.effect("more rows at one instant than a chunk holds, between rows before and after it, each read once", () =>
    Effect.gen(function*() {
      const { id } = yield* organization
      const repo = yield* UsageRepo.UsageRecordsRepo
      const crowd = SPAN_CHUNK + 1_500
      // The instant's rows are written last and first, so its lowest and highest `seq` bound the span.
      yield* repo.insert(id, Array.from({ length: crowd / 2 }, (_, i) => row("2026-10-15T12:00:00Z", `noon-a${i}`)))
      yield* repo.insert(id, [row("2026-10-01T00:00:00Z", "first"), row("2026-10-31T23:59:59Z", "last")])
      yield* repo.insert(id, [row("2026-09-30T23:59:59Z", "september"), row("2026-11-01T00:00:00Z", "november")])
      yield* repo.insert(id, Array.from({ length: crowd / 2 }, (_, i) => row("2026-10-15T12:00:00Z", `noon-b${i}`)))
      const tags = yield* scanOctober(id)
      expect(tags).toHaveLength(crowd + 2)
      expect(new Set(tags).size).toBe(crowd + 2)
      expect(tags).toContain("first")
      expect(tags).toContain("last")
      expect(tags).not.toContain("september")
      expect(tags).not.toContain("november")
    }).pipe(Effect.provide(store)))

  it.effect("a month spread over several chunks, with its first and last rows written around other months' rows", () =>
    Effect.gen(function*() {
      const { id } = yield* organization
      const repo = yield* UsageRepo.UsageRecordsRepo
      const early = row("2026-10-31T00:00:00Z", "written-first")
      const others = Array.from({ length: 3_000 }, (_, i) => row(`2026-09-${String(1 + (i % 28)).padStart(2, "0")}T00:00:00Z`, `sep${i}`))
      // Three chunks' worth, a few rows per second: chunks end and start within one start time.
      const month = Array.from({ length: 3 * SPAN_CHUNK }, (_, i) =>
        row(new Date(Date.UTC(2026, 9, 2) + Math.floor(i / 3) * 1000).toISOString(), `oct${i}`))
      const late = row("2026-10-01T00:00:00Z", "written-last")
      yield* repo.insert(id, [early])
      yield* repo.insert(id, others)
      yield* repo.insert(id, month)
      yield* repo.insert(id, others.map((record, i) => ({ ...record, query_tag: `sep-again${i}` })))
      yield* repo.insert(id, [late])
      const tags = yield* scanOctober(id)
      expect(tags).toHaveLength(month.length + 2)
      expect(new Set(tags).size).toBe(month.length + 2)
      expect(tags[0]).toBe("written-first")
      expect(tags.at(-1)).toBe("written-last")
      expect(tags.some((tag) => tag.startsWith("sep"))).toBe(false)
    }).pipe(Effect.provide(store)))
})
