import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import { makeProgress, progressLine } from "../src/Progress.js"

const recorder = (isTTY: boolean) => {
  const written: Array<string> = []
  return { output: { isTTY, write: (text: string) => written.push(text) }, written }
}

describe("progress", () => {
  it("says nothing when the output is not a terminal", () => {
    const { output, written } = recorder(false)
    const progress = makeProgress(100, output)
    Effect.runSync(Effect.zipRight(progress.advance("validating", 50), progress.finish))
    expect(written).toEqual([])
  })

  it("rewrites one line on a terminal, only when its text changes, and clears it at the end", () => {
    const { output, written } = recorder(true)
    const progress = makeProgress(2_000_000, output)
    Effect.runSync(Effect.all([
      progress.advance("validating", 1_000_000),
      progress.advance("validating", 1),
      progress.advance("validating", 999_999),
      progress.advance("importing", 500_000),
      progress.finish
    ]))
    expect(written).toEqual([
      "\r\x1b[2Kvalidating: 50% (1.0 MB of 2.0 MB)",
      "\r\x1b[2Kvalidating: 100% (2.0 MB of 2.0 MB)",
      "\r\x1b[2Kimporting: 25% (0.5 MB of 2.0 MB)",
      "\r\x1b[2K"
    ])
  })

  it("an empty file is done at once; more than the size never shows over 100%", () => {
    expect(progressLine("importing", 0, 0)).toBe("importing: 100% (0.0 MB of 0.0 MB)")
    expect(progressLine("importing", 30, 20)).toBe("importing: 100% (0.0 MB of 0.0 MB)")
  })
})
