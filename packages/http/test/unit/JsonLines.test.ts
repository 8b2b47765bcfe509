import { describe, expect, it } from "vitest"
import { makeBatcher } from "../../src/logging/JsonLines.js"

/** A batcher whose "next turn of the event loop" is run by hand. */
const manual = () => {
  const writes: Array<string> = []
  let turn: (() => void) | undefined
  const batcher = makeBatcher((chunk) => writes.push(chunk), (flush) => (turn = flush))
  return { writes, batcher, nextTurn: () => turn?.() }
}

describe("JSON lines logger batching", () => {
  it("writes every line of a turn in one write, each ending in a newline", () => {
    const { batcher, nextTurn, writes } = manual()
    batcher.push(`{"n":1}`)
    batcher.push(`{"n":2}`)
    expect(writes).toEqual([])
    nextTurn()
    expect(writes).toEqual([`{"n":1}\n{"n":2}\n`])
  })

  it("starts a new batch after a write and writes nothing for an empty turn", () => {
    const { batcher, nextTurn, writes } = manual()
    batcher.push("a")
    nextTurn()
    nextTurn()
    batcher.push("b")
    nextTurn()
    expect(writes).toEqual(["a\n", "b\n"])
  })

  it("flush writes what is pending at once (scope close, process exit)", () => {
    const { batcher, writes } = manual()
    batcher.push("last words")
    batcher.flush()
    expect(writes).toEqual(["last words\n"])
  })
})
