import { describe, expect, it } from "@effect/vitest"
import { queuedWarehouse } from "../../src/rules/QueuedWarehouse.js"
import { runRule } from "../helpers.js"

const SQL = "SELECT 1"

describe("queued_warehouse", () => {
  it("flags a long wait that is a large share of the time", () => {
    const [finding] = runRule(queuedWarehouse, SQL, { statistics: { queued_time_ms: 30_000, execution_time_ms: 30_000 } })
    expect(finding?.severity).toBe("medium")
    expect(finding?.evidence).toEqual({ queued_time_ms: 30_000, queued_share: 0.5 })
    expect(finding?.potential_savings).toBeUndefined()
  })

  it("is high after five minutes in the queue", () => {
    const [finding] = runRule(queuedWarehouse, SQL, { statistics: { queued_time_ms: 400_000 } })
    expect(finding?.severity).toBe("high")
  })

  it("ignores short waits and waits small next to the run time", () => {
    expect(runRule(queuedWarehouse, SQL, { statistics: { queued_time_ms: 2_000 } })).toEqual([])
    expect(runRule(queuedWarehouse, SQL, { statistics: { queued_time_ms: 20_000, execution_time_ms: 600_000 } })).toEqual([])
  })
})
