import { Context } from "effect"
import { describe, expect, it } from "vitest"
import { LayeredMap, layeredContext } from "../../src/shared/LayeredMap.js"

/** What a plain Map built the old way holds: the base's entries, then the layer's over them. */
const flat = <K, V>(base: ReadonlyMap<K, V>, layer: ReadonlyArray<readonly [K, V]>) => {
  const map = new Map(base)
  for (const [key, value] of layer) map.set(key, value)
  return map
}

describe("LayeredMap (a request's context over its route's services)", () => {
  const base: ReadonlyMap<string, number> = new Map([["a", 1], ["b", 2], ["c", 3]])

  it("reads through to the base, and the layer's entries win", () => {
    const map = new LayeredMap(base)
    map.set("b", 20).set("d", 4)
    expect(map.get("a")).toBe(1)
    expect(map.get("b")).toBe(20)
    expect(map.get("d")).toBe(4)
    expect(map.get("z")).toBeUndefined()
    expect(map.has("a") && map.has("d")).toBe(true)
    expect(map.has("z")).toBe(false)
    expect(map.size).toBe(4)
    // The base is shared by every request: never written.
    expect([...base]).toEqual([["a", 1], ["b", 2], ["c", 3]])
  })

  it("iterates, copies and spreads as the plain Map it replaces (what Context.add and merge do with it)", () => {
    const map = new LayeredMap(base)
    map.set("b", 20).set("d", 4)
    const expected = flat(base, [["b", 20], ["d", 4]])
    expect(new Map(map)).toEqual(expected)
    expect(Object.fromEntries(map)).toEqual(Object.fromEntries(expected))
    expect(new Set(map.keys())).toEqual(new Set(expected.keys()))
    expect([...map.values()].sort()).toEqual([...expected.values()].sort())
    const seen: Array<[string, number]> = []
    map.forEach((value, key, self) => {
      expect(self).toBe(map)
      seen.push([key, value])
    })
    expect(new Map(seen)).toEqual(expected)
  })

  it("deletes base entries without touching the base, and sets them again", () => {
    const map = new LayeredMap(base)
    expect(map.delete("a")).toBe(true)
    expect(map.delete("a")).toBe(false)
    expect(map.has("a")).toBe(false)
    expect(map.get("a")).toBeUndefined()
    expect(map.size).toBe(2)
    expect([...map.keys()].sort()).toEqual(["b", "c"])
    map.set("a", 10)
    expect(map.get("a")).toBe(10)
    expect(map.size).toBe(3)
    // A layer entry over a base one: deleting it shows neither.
    expect(map.delete("b")).toBe(true)
    map.set("b", 20)
    expect(map.delete("b")).toBe(true)
    expect(map.has("b")).toBe(false)
    expect(map.size).toBe(2)
    expect(new Map(map)).toEqual(new Map([["a", 10], ["c", 3]]))
    map.clear()
    expect(map.size).toBe(0)
    expect([...map]).toEqual([])
    expect(base.get("a")).toBe(1)
  })

  it("moves onto another base in place: its own entries over it, deleted keys still hidden", () => {
    const map = new LayeredMap(base)
    map.set("b", 20).set("d", 4)
    map.delete("a")
    const other: ReadonlyMap<string, number> = new Map([["a", 100], ["c", 300], ["e", 500]])
    // Iterated first: the copy it keeps for iterating must not outlive the old base.
    expect(new Map(map)).toEqual(new Map([["b", 20], ["c", 3], ["d", 4]]))
    map.rebase(other)
    expect(map.base).toBe(other)
    expect(map.get("c")).toBe(300)
    expect(map.get("e")).toBe(500)
    expect(map.get("b")).toBe(20)
    expect(map.has("a")).toBe(false)
    expect(map.size).toBe(4)
    expect(new Map(map)).toEqual(new Map([["c", 300], ["e", 500], ["b", 20], ["d", 4]]))
    // A hidden key the new base lacks is not counted against it.
    map.rebase(new Map([["c", 3]]))
    expect(map.size).toBe(3)
    expect(new Map(map)).toEqual(new Map([["c", 3], ["b", 20], ["d", 4]]))
    expect([...other]).toEqual([["a", 100], ["c", 300], ["e", 500]])
  })

  it("behaves as a plain copy of its base under any sequence of writes", () => {
    const keys = ["a", "b", "c", "d", "e"]
    let seed = 7
    const next = () => (seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648)
    for (let run = 0; run < 200; run++) {
      const map = new LayeredMap(base)
      const model = new Map(base)
      for (let step = 0; step < 12; step++) {
        const key = keys[next() % keys.length]!
        const op = next() % 5
        if (op < 2) {
          map.set(key, step)
          model.set(key, step)
        } else if (op < 4) expect(map.delete(key)).toBe(model.delete(key))
        else if (next() % 10 === 0) {
          map.clear()
          model.clear()
        }
        expect(map.size).toBe(model.size)
        for (const probe of keys) expect([map.has(probe), map.get(probe)]).toEqual([model.has(probe), model.get(probe)])
        expect(new Map(map)).toEqual(model)
      }
    }
    expect([...base]).toEqual([["a", 1], ["b", 2], ["c", 3]])
  })

  it("serves Effect's Context: lookups, additions (a plain copy) and merges", () => {
    class A extends Context.Tag("A")<A, string>() {}
    class B extends Context.Tag("B")<B, string>() {}
    class C extends Context.Tag("C")<C, string>() {}
    const services = Context.make(A, "a").pipe(Context.add(B, "b")).unsafeMap
    const layered = new LayeredMap(services)
    layered.set(B.key, "request b")
    const context = Context.unsafeMake<A | B>(layered)
    expect(Context.get(context, A)).toBe("a")
    expect(Context.get(context, B)).toBe("request b")
    const added = Context.add(context, C, "c")
    expect(added.unsafeMap).not.toBeInstanceOf(LayeredMap)
    expect([Context.get(added, A), Context.get(added, B), Context.get(added, C)]).toEqual(["a", "request b", "c"])
    const merged = Context.merge(Context.make(C, "c"), context)
    expect(Context.get(merged, B)).toBe("request b")
    expect(Context.getOption(Context.omit(A)(context) as Context.Context<unknown>, A)._tag).toBe("None")
    // layeredContext: entries over a context, the context itself untouched.
    const over = layeredContext(context as Context.Context<never>, [[C, "c"], [A, "request a"]])
    expect([Context.get(over as Context.Context<A | C>, A), Context.get(over as Context.Context<C>, C)]).toEqual(["request a", "c"])
    expect(Context.getOption(context as Context.Context<unknown>, C)._tag).toBe("None")
  })
})
