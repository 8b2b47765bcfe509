/**
 * Small answers written together at the end of the turn that made them (`routing/TurnWrites.ts`):
 * in the order they were made, once per turn, never held past `MAX_WAIT_MS`, when large or past
 * `MAX_QUEUED` answers, and one that throws costs its own connection only.
 */
import type { ServerResponse } from "node:http"
import { describe, expect, it } from "vitest"
import * as TurnWrites from "../../src/routing/TurnWrites.js"

/** A queue whose end of turn and clock are driven by hand. */
const manual = () => {
  const turns: Array<() => void> = []
  const clock = { ms: 0 }
  return { enqueue: TurnWrites.make((flush) => turns.push(flush), () => clock.ms), turns, clock }
}

const response = () => {
  const res = { destroyed: false, destroy: () => (res.destroyed = true) }
  return res as typeof res & ServerResponse
}

const SMALL = 1_000

describe("TurnWrites", () => {
  it("writes nothing until the end of the turn, then every answer of the turn, in order", () => {
    const { enqueue, turns } = manual()
    const written: Array<string> = []
    enqueue(response(), SMALL, () => written.push("a"))
    enqueue(response(), 0, () => written.push("b"))
    expect(written).toEqual([])
    expect(turns).toHaveLength(1)
    turns[0]!()
    expect(written).toEqual(["a", "b"])
    // The next turn's answers get a flush of their own.
    enqueue(response(), SMALL, () => written.push("c"))
    expect(turns).toHaveLength(2)
    turns[1]!()
    expect(written).toEqual(["a", "b", "c"])
  })

  it("writes a large answer, or one of unknown size, at once, after the answers queued before it", () => {
    const { enqueue } = manual()
    const written: Array<string> = []
    enqueue(response(), SMALL, () => written.push("small"))
    enqueue(response(), TurnWrites.LARGE_ANSWER_BYTES, () => written.push("large"))
    expect(written).toEqual(["small", "large"])
    enqueue(response(), undefined, () => written.push("stream"))
    expect(written).toEqual(["small", "large", "stream"])
  })

  it("writes the queue once its first answer has waited MAX_WAIT_MS, however long the turn goes on", () => {
    const { clock, enqueue } = manual()
    const written: Array<string> = []
    enqueue(response(), SMALL, () => written.push("first"))
    clock.ms += TurnWrites.MAX_WAIT_MS / 2
    enqueue(response(), SMALL, () => written.push("second"))
    expect(written).toEqual([])
    clock.ms += TurnWrites.MAX_WAIT_MS / 2
    enqueue(response(), SMALL, () => written.push("third"))
    expect(written).toEqual(["first", "second", "third"])
  })

  it("writes the queue once it holds MAX_QUEUED answers, the turn's later answers in a queue of their own", () => {
    const { enqueue, turns } = manual()
    const written: Array<number> = []
    for (let index = 0; index < TurnWrites.MAX_QUEUED - 1; index++) enqueue(response(), SMALL, () => written.push(index))
    expect(written).toEqual([])
    enqueue(response(), SMALL, () => written.push(TurnWrites.MAX_QUEUED - 1))
    expect(written).toEqual(Array.from({ length: TurnWrites.MAX_QUEUED }, (_, index) => index))
    enqueue(response(), SMALL, () => written.push(TurnWrites.MAX_QUEUED))
    expect(written).toHaveLength(TurnWrites.MAX_QUEUED)
    // The first queue's end-of-turn flush finds the second queue and writes it in the same turn.
    turns[0]!()
    expect(written).toEqual(Array.from({ length: TurnWrites.MAX_QUEUED + 1 }, (_, index) => index))
  })

  it("destroys the connection of an answer whose write throws, and writes the turn's others", () => {
    const { enqueue, turns } = manual()
    const written: Array<string> = []
    const failing = response()
    const fine = response()
    enqueue(failing, SMALL, () => {
      throw new TypeError("Invalid character in header content")
    })
    enqueue(fine, SMALL, () => written.push("after"))
    turns[0]!()
    expect(failing.destroyed).toBe(true)
    expect(fine.destroyed).toBe(false)
    expect(written).toEqual(["after"])
    const large = response()
    enqueue(large, undefined, () => {
      throw new TypeError("Invalid character in header content")
    })
    expect(large.destroyed).toBe(true)
  })

  it("ends a turn with setImmediate by default: after the turn's callbacks, before the next turn's I/O", async () => {
    const enqueue = TurnWrites.make()
    const order: Array<string> = []
    enqueue(response(), SMALL, () => order.push("written"))
    await Promise.resolve()
    order.push("same turn")
    await new Promise((resolve) => setImmediate(resolve))
    expect(order).toEqual(["same turn", "written"])
  })
})
