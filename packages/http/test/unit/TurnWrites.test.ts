/**
 * Answers written together at the end of the turn that made them (`routing/TurnWrites.ts`): in
 * the order they were made, once per turn, and one that throws costs its own connection only.
 */
import type { ServerResponse } from "node:http"
import { describe, expect, it } from "vitest"
import * as TurnWrites from "../../src/routing/TurnWrites.js"

/** A queue whose end of turn is run by hand. */
const manual = () => {
  const turns: Array<() => void> = []
  return { enqueue: TurnWrites.make((flush) => turns.push(flush)), turns }
}

const response = () => {
  const res = { destroyed: false, destroy: () => (res.destroyed = true) }
  return res as typeof res & ServerResponse
}

describe("TurnWrites", () => {
  it("writes nothing until the end of the turn, then every answer of the turn, in order", () => {
    const { enqueue, turns } = manual()
    const written: Array<string> = []
    enqueue(response(), () => written.push("a"))
    enqueue(response(), () => written.push("b"))
    expect(written).toEqual([])
    expect(turns).toHaveLength(1)
    turns[0]!()
    expect(written).toEqual(["a", "b"])
    // The next turn's answers get a flush of their own.
    enqueue(response(), () => written.push("c"))
    expect(turns).toHaveLength(2)
    turns[1]!()
    expect(written).toEqual(["a", "b", "c"])
  })

  it("destroys the connection of an answer whose write throws, and writes the turn's others", () => {
    const { enqueue, turns } = manual()
    const written: Array<string> = []
    const failing = response()
    const fine = response()
    enqueue(failing, () => {
      throw new TypeError("Invalid character in header content")
    })
    enqueue(fine, () => written.push("after"))
    turns[0]!()
    expect(failing.destroyed).toBe(true)
    expect(fine.destroyed).toBe(false)
    expect(written).toEqual(["after"])
  })

  it("ends a turn with setImmediate by default: after the turn's callbacks, before the next turn's I/O", async () => {
    const enqueue = TurnWrites.make()
    const order: Array<string> = []
    enqueue(response(), () => order.push("written"))
    await Promise.resolve()
    order.push("same turn")
    await new Promise((resolve) => setImmediate(resolve))
    expect(order).toEqual(["same turn", "written"])
  })
})
