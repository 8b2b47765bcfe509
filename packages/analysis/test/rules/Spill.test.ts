import { describe, expect, it } from "@effect/vitest"
import { queryLocalSpill, queryRemoteSpill } from "../../src/rules/Spill.js"
import { runRule } from "../helpers.js"

const SQL = "SELECT a, COUNT(*) FROM t GROUP BY a"
const GiB = 1024 ** 3

describe("query_local_spill", () => {
  it("flags a local spill of a GiB or more", () => {
    const [finding] = runRule(queryLocalSpill, SQL, { statistics: { bytes_spilled_local: 3 * GiB, warehouse_size: "Small" } })
    expect(finding?.severity).toBe("medium")
    expect(finding?.description).toContain("3 GiB")
    expect(finding?.evidence).toEqual({ bytes_spilled_local: 3 * GiB, warehouse_size: "Small" })
  })

  it("ignores small local spills and remote ones", () => {
    expect(runRule(queryLocalSpill, SQL, { statistics: { bytes_spilled_local: 100 * 1024 ** 2 } })).toEqual([])
    expect(runRule(queryLocalSpill, SQL, { statistics: { bytes_spilled_remote: 3 * GiB } })).toEqual([])
  })
})

describe("query_remote_spill", () => {
  it("flags any remote spill as high", () => {
    const [finding] = runRule(queryRemoteSpill, SQL, { statistics: { bytes_spilled_remote: 1024 } })
    expect(finding?.severity).toBe("high")
    expect(finding?.evidence).toEqual({ bytes_spilled_remote: 1024 })
  })

  it("ignores queries without remote spill", () => {
    expect(runRule(queryRemoteSpill, SQL, { statistics: { bytes_spilled_remote: 0, bytes_spilled_local: 5 * GiB } })).toEqual([])
  })
})
