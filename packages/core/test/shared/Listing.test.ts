import { describe, expect, it } from "@effect/vitest"
import { Effect, FastCheck as fc, Layer, Schema } from "effect"
import { InstallationRepo } from "../../src/shared/Installation.js"
import {
  applyWindow,
  checkPageSize,
  type Keyset,
  KeysetPosition,
  layer as listCursorsLayer,
  ListCursors,
  offsetPage,
  timeIdList
} from "../../src/shared/Listing.js"

/** Rows as a store holds them: ordered by (at, id), several sharing one time. */
const rows = fc.uniqueArray(
  fc.record({ at: fc.constantFrom("2024-01-01T00:00:00.000Z", "2024-01-01T00:00:00.001Z", "2025-06-01T12:00:00.000Z"), id: fc.uuid() }),
  { selector: (row) => row.id, maxLength: 30 }
).map((list) => [...list].sort((a, b) => (a.at === b.at ? (a.id < b.id ? -1 : 1) : a.at < b.at ? -1 : 1)))

const keyOf = (row: Keyset) => row

describe("applyWindow", () => {
  it.prop("reading page after page from the last row's keyset yields every row once, in order", [rows, fc.integer({ min: 1, max: 7 })], ([list, size]) => {
    const seen: Array<Keyset> = []
    let after: Keyset | undefined
    for (;;) {
      const page = applyWindow(list, { after, limit: size }, keyOf)
      seen.push(...page)
      if (page.length < size) break
      after = page.at(-1)
    }
    expect(seen).toEqual(list)
  })

  it.prop("an offset window is the slice at that offset", [rows, fc.nat(40), fc.integer({ min: 1, max: 10 })], ([list, offset, limit]) => {
    expect(applyWindow(list, { offset, limit }, keyOf)).toEqual(list.slice(offset, offset + limit))
  })

  it("after a keyset that is not in the list, resumes at the next row in order", () => {
    const list = [{ at: "a", id: "1" }, { at: "b", id: "1" }, { at: "b", id: "3" }]
    expect(applyWindow(list, { after: { at: "b", id: "2" }, limit: 5 }, keyOf)).toEqual([{ at: "b", id: "3" }])
  })
})

describe("page sizes and offsets", () => {
  it.effect("a page size outside 1..max, or not an integer, fails at the named field", () =>
    Effect.gen(function*() {
      for (const size of [0, -1, 11, 1.5]) {
        const error = yield* Effect.flip(checkPageSize(size, 10, "query.members_max_results"))
        expect(error.details).toEqual([
          expect.objectContaining({ field: "query.members_max_results", message: "members_max_results must be an integer from 1 to 10" })
        ])
      }
      yield* checkPageSize(10, 10, "query.max_results")
    }))

  it.effect("an offset page counts what follows it; a negative offset fails at its field", () =>
    Effect.gen(function*() {
      const list = ["a", "b", "c", "d", "e"]
      const read = (offset: number, limit: number) =>
        offsetPage({ offset, limit }, { size: "query.limit", offset: "query.offset" }, (window) =>
          Effect.succeed(list.slice(window.offset, (window.offset ?? 0) + window.limit)), Effect.succeed(list.length))
      expect(yield* read(1, 2)).toEqual({ items: ["b", "c"], remaining_count: 2 })
      expect(yield* read(4, 5)).toEqual({ items: ["e"], remaining_count: 0 })
      expect(yield* read(9, 5)).toEqual({ items: [], remaining_count: 0 })
      expect((yield* Effect.flip(read(-1, 5))).details[0]!.field).toBe("query.offset")
      expect((yield* Effect.flip(read(0, 1001))).details[0]!.field).toBe("query.limit")
    }))
})

describe("keyset pages", () => {
  const installation = Layer.succeed(InstallationRepo, { cursorSecret: Effect.succeed("secret") })
  const list = (tokenOnLastPage: boolean) => ({ ...timeIdList("rows", keyOf), tokenOnLastPage })
  const readAll = (items: ReadonlyArray<Keyset>, size: number, tokenOnLastPage: boolean) =>
    Effect.gen(function*() {
      const cursors = yield* ListCursors
      const pages: Array<{ readonly size: number; readonly token: boolean }> = []
      let pageToken: string | undefined
      for (;;) {
        const page = yield* cursors.page("t", list(tokenOnLastPage), { pageToken, maxResults: size }, { size: "query.max_results" }, (window) =>
          Effect.succeed(applyWindow(items, window, keyOf)))
        pages.push({ size: page.items.length, token: page.page_token !== null })
        if (page.page_token === null || page.items.length === 0) return pages
        pageToken = page.page_token
      }
    }).pipe(Effect.provide(listCursorsLayer.pipe(Layer.provide(installation))))

  const five = ["1", "2", "3", "4", "5"].map((id) => ({ at: "2024-01-01T00:00:00.000Z", id }))

  it.effect("by default the last page has no token (one row more is read to know)", () =>
    Effect.gen(function*() {
      expect(yield* readAll(five, 2, false)).toEqual([{ size: 2, token: true }, { size: 2, token: true }, { size: 1, token: false }])
      expect(yield* readAll(five, 5, false)).toEqual([{ size: 5, token: false }])
    }))

  it.effect("with tokenOnLastPage every non-empty page points past its last row; only an empty page has none", () =>
    Effect.gen(function*() {
      expect(yield* readAll(five, 5, true)).toEqual([{ size: 5, token: true }, { size: 0, token: false }])
    }))

  it("a (time, id) position is written as the JSON text [at, id], as tokens issued before", () => {
    const key = { at: "2024-01-01T00:00:00.000Z", id: "a" }
    expect(Schema.encodeSync(KeysetPosition)(key)).toBe(JSON.stringify([key.at, key.id]))
    expect(Schema.decodeSync(KeysetPosition)(JSON.stringify([key.at, key.id]))).toEqual(key)
  })
})
