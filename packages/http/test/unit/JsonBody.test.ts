/** `JsonBody.bytes` is `JSON.stringify`'s text in UTF-8, also when it writes a long array in parts. */
import { describe, expect, it } from "@effect/vitest"
import { DateTime, FastCheck } from "effect"
import * as JsonBody from "../../src/api/JsonBody.js"

const reference = (value: unknown) => Buffer.from(JSON.stringify(value) ?? "", "utf8")
const same = (value: unknown) => expect(Buffer.from(JsonBody.bytes(value)).equals(reference(value))).toBe(true)

/** Values as handlers give them: JSON, with `undefined`, `toJSON` objects, dates and non-ASCII text mixed in. */
const leaf = FastCheck.oneof(
  FastCheck.jsonValue(),
  FastCheck.constant(undefined),
  FastCheck.string({ unit: "grapheme" }),
  FastCheck.date({ noInvalidDate: true }),
  FastCheck.date({ noInvalidDate: true }).map((date) => DateTime.unsafeFromDate(date)),
  FastCheck.constant({ toJSON: (key: string) => `toJSON(${key})` })
)
const item = FastCheck.dictionary(FastCheck.string(), leaf)
/** Long enough, sometimes, to be written in parts (more than 100 items). */
const items = FastCheck.array(FastCheck.oneof(item, leaf), { minLength: 0, maxLength: 160, size: "max" })

describe("JsonBody.bytes", () => {
  it("is JSON.stringify's text for pages, arrays and single values", () =>
    FastCheck.assert(
      FastCheck.property(
        FastCheck.oneof(
          FastCheck.record({ items, page_token: FastCheck.option(FastCheck.string(), { nil: null }), row_count: FastCheck.nat() }),
          FastCheck.dictionary(FastCheck.string(), FastCheck.oneof(items, leaf)),
          items,
          item,
          leaf
        ),
        (value) => {
          same(value)
        }
      ),
      { numRuns: 300 }
    ))

  it("writes a long page in parts with the same bytes, whatever its items hold", () => {
    const page = {
      items: Array.from({ length: 500 }, (_, n) => ({
        id: `r${n}`,
        note: n % 3 === 0 ? "ü – \u{1F600} \"quoted\" \\" : null,
        skipped: undefined,
        at: DateTime.unsafeMake(n * 1000),
        nested: { deep: [n, { deeper: n % 2 === 0 }] },
        dropped: () => n
      })).concat([undefined, null] as never),
      page_token: null,
      [42]: "a number key",
      absent: undefined,
      row_count: 502
    }
    same(page)
    same(page.items)
  })

  it("stringifies items in runs, each item with a toJSON on its own, called with its own index", () => {
    const keyed = { toJSON: (key: string) => `item ${key}` }
    const items: Array<unknown> = Array.from({ length: 260 }, (_, n) => ({ n, text: "ü \u{1F600}" }))
    for (const at of [0, 49, 50, 51, 77, 100, 149, 259]) items[at] = keyed
    items[120] = undefined
    items[121] = () => 1
    items[122] = new Date(0)
    same({ items, page_token: null, row_count: items.length })
    same(items)
    expect(JSON.parse(Buffer.from(JsonBody.bytes({ items })).toString("utf8")).items[259]).toBe("item 259")
  })

  it("fails as JSON.stringify does: a BigInt, a cycle", () => {
    const long = Array.from({ length: 150 }, (_, n) => ({ n }))
    expect(() => JsonBody.bytes({ items: [...long, { big: 1n }] })).toThrow(TypeError)
    const cyclic: { items: Array<unknown> } = { items: [...long] }
    cyclic.items.push(cyclic)
    expect(() => JsonBody.bytes(cyclic)).toThrow(TypeError)
    expect(() => JsonBody.bytes([...long, 1n])).toThrow(TypeError)
  })
})
